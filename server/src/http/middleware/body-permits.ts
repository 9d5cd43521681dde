import { HttpError } from '../http-error.js';
import { Permits } from '../../permits.js';
import type { BodyKind } from './body-limits.js';

/**
 * A bound on the requests with large bodies handled at once. A body of up to `BODY_LIMIT` becomes, while
 * its request is answered, several times its size in memory (bytes, text, parsed objects, a prepared
 * config); with many such requests in flight that working memory is not bounded by `CACHE_BYTES` or by
 * anything else. Requests over the threshold therefore wait for one of a few permits (`permits.ts`, one
 * per client at a time) before their body is read (it stays in the socket meanwhile), so the process's
 * memory stays within the cache budget, its base, and a fixed number of large requests.
 */
export class BodyPermits {
  readonly #permits: Permits;

  constructor(
    /** Requests with a large body answered at once. */
    readonly permits: number,
    /** Bodies above this many bytes (or of unknown length) need a permit. */
    readonly threshold: number,
  ) {
    this.#permits = new Permits(permits);
  }

  /** Whether a request with this `Content-Length` (header value) needs a permit. */
  needs(contentLength: string | undefined, hasBody: boolean): boolean {
    if (!hasBody) return false;
    if (contentLength === undefined) return true;
    const length = Number(contentLength);
    return !Number.isFinite(length) || length > this.threshold;
  }

  /**
   * Waits for a permit for `client` (absent: a request of no known client, never held back by another);
   * call the returned function once the request is answered. Gives up after `timeoutMs` (then
   * `undefined`: the caller answers 503), so clients that send their bodies slowly cannot make every
   * other large request wait without end.
   */
  acquire(
    timeoutMs: number,
    client?: string,
  ): Promise<(() => void) | undefined> {
    return this.#permits.acquire(
      client === undefined ? { timeoutMs } : { timeoutMs, client },
    );
  }

  /** Requests waiting for a permit (for tests and metrics). */
  get waiting(): number {
    return this.#permits.waiting;
  }
}

/** Requests with large bodies answered at once, per kind of body. */
export const LARGE_BODY_PERMITS = 2;
/** Bodies above this many bytes are large. */
export const LARGE_BODY_BYTES = 256 * 1024;

/**
 * The permits of each kind of body (`body-limits.ts`): a config to store and every other (inline) body
 * wait for permits of their own, so slow inline bodies (`/query` with a config of up to
 * `INLINE_BODY_LIMIT`, which anyone who may read can send) never hold the permits that writes of stored
 * configs need. Memory then holds at most {@link LARGE_BODY_PERMITS} large bodies of each kind at once.
 */
export function bodyPermitsByKind(): Readonly<Record<BodyKind, BodyPermits>> {
  return {
    stored: new BodyPermits(LARGE_BODY_PERMITS, LARGE_BODY_BYTES),
    inline: new BodyPermits(LARGE_BODY_PERMITS, LARGE_BODY_BYTES),
  };
}

/** How long a large request waits for a permit before it is answered 503. */
const PERMIT_WAIT_MS = 15_000;

/** What {@link withBodyPermit} needs to know of a request. */
export interface PermitRequest {
  /** Its `Content-Length` header. */
  readonly contentLength: string | undefined;
  /** Who sent it (see `client-address.ts`): one permit per client at a time; absent: not limited so. */
  readonly client?: string;
}

/**
 * Runs `answer` holding a permit when the request's body is large or of unknown length; answers 503 with
 * `Retry-After` when none frees up in time. Call it only once the caller's access is checked, so a
 * request that will be refused never holds a permit.
 */
export async function withBodyPermit(
  permits: BodyPermits,
  request: PermitRequest,
  answer: () => Promise<Response>,
): Promise<Response> {
  if (!permits.needs(request.contentLength, true)) return answer();
  const release = await permits.acquire(PERMIT_WAIT_MS, request.client);
  if (release === undefined) {
    throw new HttpError(
      503,
      'the server is busy with other large requests; retry shortly',
      {
        'Retry-After': '2',
      },
    );
  }
  try {
    return await answer();
  } finally {
    release();
  }
}
