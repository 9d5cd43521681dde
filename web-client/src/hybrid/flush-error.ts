/** `flush()` could not empty the outbox; `reasons` says why, one line per cause. */
export class FlushError extends Error {
  override readonly name = 'FlushError';
  readonly reasons: readonly string[];

  constructor(reasons: readonly string[]) {
    super(`Not every change reached the server: ${reasons.join('; ')}`);
    this.reasons = reasons;
  }
}
