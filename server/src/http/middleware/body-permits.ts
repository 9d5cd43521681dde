import { HttpError } from '../http-error.js';

/**
 * A bound on the requests with large bodies handled at once. A body of up to `BODY_LIMIT` becomes, while
 * its request is answered, several times its size in memory (bytes, text, parsed objects, a prepared
 * config); with many such requests in flight that working memory is not bounded by `CACHE_BYTES` or by
 * anything else. Requests over the threshold therefore wait for one of a few permits before their body
 * is read (it stays in the socket meanwhile), so the process's memory stays within the cache budget, its
 * base, and a fixed number of large requests.
 */
export class BodyPermits {
  readonly #waiting: (() => void)[] = [];
  #available: number;

  constructor(
    /** Requests with a large body answered at once. */
    readonly permits: number,
    /** Bodies above this many bytes (or of unknown length) need a permit. */
    readonly threshold: number,
  ) {
    this.#available = Math.max(1, permits);
  }

  /** Whether a request with this `Content-Length` (header value) needs a permit. */
  needs(contentLength: string | undefined, hasBody: boolean): boolean {
    if (!hasBody) return false;
    if (contentLength === undefined) return true;
    const length = Number(contentLength);
    return !Number.isFinite(length) || length > this.threshold;
  }

  /**
   * Waits for a permit; call the returned function once the request is answered. Gives up after
   * `timeoutMs` (then `undefined`: the caller answers 503), so clients that send their bodies slowly
   * cannot make every other large request wait without end.
   */
  async acquire(timeoutMs: number): Promise<(() => void) | undefined> {
    if (this.#available > 0) {
      this.#available--;
    } else {
      const granted = await new Promise<boolean>((resolve) => {
        const grant = (): void => {
          clearTimeout(timer);
          resolve(true);
        };
        const timer = setTimeout(() => {
          const at = this.#waiting.indexOf(grant);
          if (at >= 0) this.#waiting.splice(at, 1);
          resolve(false);
        }, timeoutMs);
        this.#waiting.push(grant);
      });
      if (!granted) return undefined;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiting.shift();
      if (next === undefined) this.#available++;
      else next();
    };
  }

  /** Requests waiting for a permit (for tests and metrics). */
  get waiting(): number {
    return this.#waiting.length;
  }
}

/** Requests with large bodies answered at once. */
export const LARGE_BODY_PERMITS = 2;
/** Bodies above this many bytes are large. */
export const LARGE_BODY_BYTES = 256 * 1024;

/** How long a large request waits for a permit before it is answered 503. */
const PERMIT_WAIT_MS = 15_000;

/**
 * Runs `answer` holding a permit when the request's body is large (or of unknown length); answers 503
 * with `Retry-After` when none frees up in time.
 */
export async function withBodyPermit(
  permits: BodyPermits,
  contentLength: string | undefined,
  answer: () => Promise<Response>,
): Promise<Response> {
  if (!permits.needs(contentLength, true)) return answer();
  const release = await permits.acquire(PERMIT_WAIT_MS);
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
