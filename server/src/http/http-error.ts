/** An HTTP-level failure (bad body, wrong content type, …) with the status and message to answer. */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 405 | 411 | 413 | 415 | 500 | 503,
    message: string,
    /** Extra response headers (`Allow`, `WWW-Authenticate`, `Connection`, `Retry-After`). */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}
