/**
 * How a remote call failed: no answer, no answer in time, an HTTP error status, or a conditional write
 * refused because the server holds another version (412).
 */
export type RemoteFailureKind = 'network' | 'timeout' | 'http' | 'conflict';

/** Fields of a {@link RemoteStoreError}. */
export interface RemoteStoreErrorInit {
  op: string;
  /** The config name the operation was about (empty for `list`). */
  configName: string;
  kind: RemoteFailureKind;
  /** The HTTP status; 0 when there was no response. */
  status: number;
  message: string;
  /** For an HTTP failure: the server's own words (its `{error}`, else the status text). */
  reason?: string;
  /** From a `Retry-After` header, when the server sent one. */
  retryAfterMs?: number;
  /** For a conflict: the server's current ETag, `null` when it has no such config. */
  etag?: string | null;
  cause?: unknown;
}

/**
 * A failed remote store operation. Carries the operation, the config name, the HTTP status and the
 * server's `{error}` message, so callers can tell a retryable failure from a permanent one.
 * `name` is the class name, as for every `Error`; the config name is `configName`.
 */
export class RemoteStoreError extends Error {
  override readonly name = 'RemoteStoreError';
  /** The config name the failed operation was about (empty for `list`). */
  readonly configName: string;
  readonly op: string;
  readonly kind: RemoteFailureKind;
  readonly status: number;
  readonly retryAfterMs: number | undefined;
  /** For kind `conflict`: the ETag the server holds now, `null` when the config does not exist there. */
  readonly etag: string | null | undefined;
  /** For an HTTP failure: the server's own words (its `{error}`, else the status text). */
  readonly reason: string | undefined;

  constructor(init: RemoteStoreErrorInit) {
    super(init.message, { cause: init.cause });
    this.op = init.op;
    this.configName = init.configName;
    this.kind = init.kind;
    this.status = init.status;
    this.retryAfterMs = init.retryAfterMs;
    this.etag = init.etag;
    this.reason = init.reason;
  }

  /** Whether trying again later may succeed (network, timeout, 408, 429, 5xx); a conflict never is. */
  get retryable(): boolean {
    if (this.kind === 'conflict') return false;
    return (
      this.kind !== 'http' ||
      this.status === 408 ||
      this.status === 429 ||
      this.status >= 500
    );
  }

  /** Whether the server answered at all (anything but a network failure or a timeout). */
  get answered(): boolean {
    return this.kind === 'http' || this.kind === 'conflict';
  }

  /**
   * Whether the server refused our credentials (401: no key, or an unknown, expired or revoked one).
   * A 403 is not this: the key is valid but may not do this one thing (write that name).
   */
  get unauthorized(): boolean {
    return this.kind === 'http' && this.status === 401;
  }

  /** Whether the key is valid but may not do this (403: a read key writing, a name outside its patterns). */
  get forbidden(): boolean {
    return this.kind === 'http' && this.status === 403;
  }
}

/** Reads a `Retry-After` header (seconds or an HTTP date) as milliseconds from `now`. */
export function parseRetryAfter(
  value: string | null,
  now: number,
): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
