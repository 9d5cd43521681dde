import type { DomainError } from '../errors.js';
import { ERROR_CODES, PreconditionFailedError } from '../errors.js';

/** An HTTP-level failure (bad body, wrong content type, …) with the status and message to answer. */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly status:
      | 400
      | 401
      | 403
      | 404
      | 405
      | 408
      | 409
      | 411
      | 412
      | 413
      | 415
      | 500
      | 503,
    message: string,
    /** Extra response headers (`Allow`, `WWW-Authenticate`, `Connection`, `Retry-After`, `ETag`). */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }

  /**
   * The REST answer of a domain error: its status from the one code table (`errors.ts`), a 401 asks for
   * a bearer token, a busy server says when to come back (`Retry-After`), and a refused conditional
   * write names the stored version in `ETag` (none: no header).
   */
  static of(error: DomainError): HttpError {
    const status = ERROR_CODES[error.code].http;
    const headers = statusHeaders(status);
    if (
      error instanceof PreconditionFailedError &&
      error.currentEtag !== null
    ) {
      headers['ETag'] = error.currentEtag;
    }
    return new HttpError(status, error.message, headers);
  }
}

/**
 * The headers an error answer of `status` carries, over REST and tRPC alike: a 401 asks for a bearer
 * token, a busy server (503) says when to come back.
 */
export function statusHeaders(status: number): Record<string, string> {
  return status === 401
    ? { 'WWW-Authenticate': 'Bearer' }
    : status === 503
      ? { 'Retry-After': '2' }
      : {};
}
