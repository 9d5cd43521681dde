import { Doorkeeper } from './doorkeeper.js';
import { stringWeight } from './weights.js';
import { WeightedLru } from './weighted-lru.js';
import type { CacheStats } from './weighted-lru.js';

/** A response body kept for reuse. */
export interface CachedAnswer {
  readonly body: string;
  /** The stored state it was computed from (the change token). */
  readonly token: string;
  /** Until when (ms since the epoch) the answer holds; `Infinity` when only writes change it. */
  readonly validUntil: number;
}

/** Options of {@link ResponseCache}. */
export interface ResponseCacheOptions {
  readonly budget: number;
  /** How many recent request keys the doorkeeper remembers (default 16,384). */
  readonly doorkeeperSize?: number;
}

/** Longest key worth remembering; requests with longer keys (big inline configs) are never cached. */
export const MAX_KEY_LENGTH = 8192;

/**
 * Whole read responses, reused while the stored state (change token) and the answer's own time limit
 * hold. Only requests seen before are admitted: a doorkeeper remembers hashes of the last few thousand
 * request keys, so a stream of distinct requests (what real clients mostly send) costs one hash each
 * and stores nothing, while a request that repeats is kept from its second occurrence on.
 */
export class ResponseCache {
  readonly #lru: WeightedLru<string, CachedAnswer>;
  readonly #doorkeeper: Doorkeeper;

  constructor(options: ResponseCacheOptions) {
    this.#lru = new WeightedLru({ name: 'responses', budget: options.budget });
    this.#doorkeeper = new Doorkeeper(options.doorkeeperSize);
  }

  /** The cached body for `key`, if it is still valid for `token` at `now`. */
  get(key: string, token: string, now: number): string | undefined {
    const hit = this.#lru.get(key);
    if (hit === undefined) return undefined;
    if (hit.token !== token || now >= hit.validUntil) {
      this.#lru.delete(key);
      return undefined;
    }
    return hit.body;
  }

  /**
   * Offers a fresh answer: kept only when `key` was asked recently (second sight) and the answer holds
   * beyond `now`. Returns whether it was kept.
   */
  offer(key: string, answer: CachedAnswer, now: number): boolean {
    if (key.length > MAX_KEY_LENGTH || !(answer.validUntil > now)) return false;
    if (!this.#doorkeeper.admit(key)) return false;
    return this.#lru.set(
      key,
      answer,
      stringWeight(answer.body) + stringWeight(key) + 128,
    );
  }

  /** Drops every answer (they are all stale after a write in this process). */
  clear(): void {
    this.#lru.clear();
  }

  stats(): CacheStats {
    return this.#lru.stats();
  }
}
