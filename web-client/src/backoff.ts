/** Settings of the retry delay. */
export interface BackoffOptions {
  /** First delay ceiling in ms (default 1 000). */
  baseMs?: number;
  /** Largest delay in ms (default 60 000). */
  capMs?: number;
  /** Random source in [0, 1) (default `Math.random`); injectable for tests. */
  random?: () => number;
}

/**
 * Exponential backoff with full jitter: the n-th retry waits a uniformly random time in
 * `[0, min(cap, base · 2^n))`, never less than a server's `Retry-After`.
 */
export class Backoff {
  private attempt = 0;
  private readonly baseMs: number;
  private readonly capMs: number;
  private readonly random: () => number;

  constructor(options: BackoffOptions = {}) {
    this.baseMs = options.baseMs ?? 1000;
    this.capMs = options.capMs ?? 60_000;
    this.random = options.random ?? Math.random;
  }

  /** The delay before the next attempt; each call counts one more failure. */
  next(retryAfterMs?: number): number {
    const ceiling = Math.min(
      this.capMs,
      this.baseMs * 2 ** Math.min(this.attempt, 30),
    );
    this.attempt += 1;
    const jittered = Math.floor(this.random() * ceiling);
    return Math.max(jittered, retryAfterMs ?? 0);
  }

  /** Forgets past failures (after a success, or when the browser says it is back online). */
  reset(): void {
    this.attempt = 0;
  }

  /** Failures counted since the last reset. */
  get failures(): number {
    return this.attempt;
  }
}
