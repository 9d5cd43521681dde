/** A budget: tokens added per second, and the most a bucket holds (the burst a rested client may spend). */
export interface RateBudget {
  readonly perSecond: number;
  readonly burst: number;
}

/** Options of {@link TokenBuckets}. */
export interface TokenBucketsOptions extends RateBudget {
  /** Most clients tracked at once (default 50,000); beyond it the least recently seen is forgotten. */
  readonly maxClients?: number;
}

interface Bucket {
  tokens: number;
  /** When `tokens` was last brought up to date, in milliseconds. */
  at: number;
}

/**
 * Token buckets, one per client key, in bounded memory. A bucket starts full, refills continuously at
 * `perSecond` up to `burst`, and each request takes its cost from it. The map is kept in least-recently-
 * used order, so forgetting is cheap: a bucket idle long enough to be full again is the same as no bucket
 * and is dropped from the old end as requests pass by (no timers), and past `maxClients` the least recently
 * seen client is dropped too (it would then start again with a full bucket).
 */
export class TokenBuckets {
  readonly #buckets = new Map<string, Bucket>();
  readonly #rate: number;
  readonly #burst: number;
  readonly #maxClients: number;
  /** How long an untouched bucket takes to refill completely. */
  readonly #refillMs: number;

  constructor(options: TokenBucketsOptions) {
    this.#rate = options.perSecond / 1000;
    this.#burst = options.burst;
    this.#maxClients = options.maxClients ?? 50_000;
    this.#refillMs = options.burst / this.#rate;
  }

  /** Clients tracked right now. */
  get size(): number {
    return this.#buckets.size;
  }

  /** The most tokens a bucket holds: a cost above it can never be paid (see {@link take}). */
  get burst(): number {
    return this.#burst;
  }

  /**
   * Takes `cost` tokens from `key`'s bucket at time `now` (ms). Returns 0 when they were there, otherwise
   * the seconds until they will be (nothing is taken then); `Infinity` for a cost above the whole
   * {@link burst}, which no bucket ever holds (callers refuse such a request instead of charging less).
   */
  take(key: string, cost: number, now: number): number {
    if (cost > this.#burst) return Infinity;
    const need = cost;
    let bucket = this.#buckets.get(key);
    if (bucket === undefined) {
      bucket = { tokens: this.#burst, at: now };
    } else {
      this.#buckets.delete(key);
      bucket.tokens = Math.min(
        this.#burst,
        bucket.tokens + Math.max(0, now - bucket.at) * this.#rate,
      );
      bucket.at = now;
    }
    // Re-inserted at the young end: the map's order is the order of last use.
    this.#buckets.set(key, bucket);
    this.#forget(now);
    if (bucket.tokens >= need) {
      bucket.tokens -= need;
      return 0;
    }
    return (need - bucket.tokens) / this.#rate / 1000;
  }

  /** Drops full-again buckets from the old end (at most a few per call), then anything over the cap. */
  #forget(now: number): void {
    let checked = 0;
    for (const [key, bucket] of this.#buckets) {
      if (checked++ >= 4 || now - bucket.at < this.#refillMs) break;
      this.#buckets.delete(key);
    }
    while (this.#buckets.size > this.#maxClients) {
      const oldest = this.#buckets.keys().next();
      if (oldest.done === true) break;
      this.#buckets.delete(oldest.value);
    }
  }
}
