import { WeightedLru } from '../services/lru-map.js';

/** A response body (and ETag) as a read route produced it. */
export interface CachedBody {
  readonly body: string;
  readonly etag?: string | undefined;
}

/**
 * Read responses kept per request key and stored state: while the repository's change token is the same,
 * the same read answers the same bytes, so they are served without running the procedure again (its input
 * was already validated when the entry was made; only successes are kept). Authorization is still checked
 * on every request by the route. Without a change token (PostgreSQL) nothing is kept.
 */
export class ResponseCache {
  readonly #lru: WeightedLru<string, CachedBody & { token: string }>;

  constructor(maxBytes: number) {
    this.#lru = new WeightedLru(maxBytes);
  }

  /** The cached body for `key` at `token`, or what `produce` makes (then kept). */
  async serve(
    key: string,
    token: string | null,
    produce: () => Promise<CachedBody>,
  ): Promise<CachedBody> {
    if (token !== null) {
      const hit = this.#lru.get(key);
      if (hit !== undefined && hit.token === token) return hit;
    }
    const fresh = await produce();
    if (token !== null) {
      this.#lru.set(
        key,
        { ...fresh, token },
        (fresh.body.length + key.length) * 2,
      );
    }
    return fresh;
  }
}
