import type { WeightedLru } from '../cache/weighted-lru.js';
import type { KeyRepository, StoredKey } from '../storage/key-repository.js';
import { SECRET_PREFIX, secretHash } from './key-secret.js';

/** Options of {@link KeyLookup}. */
export interface KeyLookupOptions {
  /**
   * How long a key read from storage is trusted, in ms (default 500): a key revoked on another instance
   * is refused here at most this long after the revoke.
   */
  readonly ttlMs?: number;
  /** Least time between two records of a key's use, in ms (default 60,000). */
  readonly touchEveryMs?: number;
  /** The clock (ms). */
  readonly now?: () => number;
  /** Where failures of the background use records go. */
  readonly onError?: (error: unknown) => void;
}

/** What the lookup keeps per key, in the `keys` cache (`cache/cache-policy.ts`). */
export interface KeptKey {
  readonly key: StoredKey;
  /** Until when (ms) it is trusted without reading it again. */
  readonly until: number;
  /** When its use was last recorded (ms). */
  touchedAt: number;
}

/** A kept key's weight: its fields' text, plus the entry. */
const weigh = (key: StoredKey): number => 128 + JSON.stringify(key).length * 2;

/**
 * Finds the stored key of a presented secret, keeping what it read for a short while (so a request with
 * a key costs no query most of the time) in the `keys` cache, a share of `CACHE_BYTES`. Secrets are
 * never kept or logged: the cache is keyed by their digests. A key's use is recorded at most once a
 * minute, in the background (the time of the last record is kept with the key).
 */
export class KeyLookup {
  readonly #keys: KeyRepository;
  readonly #ttlMs: number;
  readonly #touchEveryMs: number;
  readonly #now: () => number;
  readonly #onError: (error: unknown) => void;
  readonly #kept: WeightedLru<string, KeptKey>;
  #anyUntil = 0;
  #any = false;

  constructor(
    keys: KeyRepository,
    kept: WeightedLru<string, KeptKey>,
    options: KeyLookupOptions = {},
  ) {
    this.#keys = keys;
    this.#kept = kept;
    this.#ttlMs = options.ttlMs ?? 500;
    this.#touchEveryMs = options.touchEveryMs ?? 60_000;
    this.#now = options.now ?? (() => Date.now());
    this.#onError = options.onError ?? (() => undefined);
  }

  /** Whether any key was ever stored (once one is, that stays so). */
  async anyKeys(): Promise<boolean> {
    const known = this.anyKeysKnown();
    if (known !== undefined) return known;
    this.#any = await this.#keys.hasAny();
    this.#anyUntil = this.#now() + this.#ttlMs;
    return this.#any;
  }

  /**
   * {@link anyKeys} when it is known without asking storage (a key exists, or storage was asked less
   * than `ttlMs` ago); `undefined` otherwise. Lets a request without a key be authorized without waiting.
   */
  anyKeysKnown(): boolean | undefined {
    return this.#any || this.#now() < this.#anyUntil ? this.#any : undefined;
  }

  /** The stored key this secret opens (revoked and expired ones included), or `null`. */
  async find(secret: string): Promise<StoredKey | null> {
    if (!secret.startsWith(SECRET_PREFIX)) return null;
    const hash = secretHash(secret);
    const now = this.#now();
    const held = this.#kept.get(hash);
    let kept: KeptKey | undefined = held;
    if (kept === undefined || now >= kept.until) {
      const key = await this.#keys.findByHash(hash);
      // Unknown secrets are not kept: invented ones would only push real keys out.
      if (key === null) {
        this.#kept.delete(hash);
        return null;
      }
      kept = {
        key,
        until: now + this.#ttlMs,
        touchedAt: held?.touchedAt ?? Number.NEGATIVE_INFINITY,
      };
      this.#kept.set(hash, kept, weigh(key));
    }
    if (kept.key.revokedAt === null) this.#touch(kept, now);
    return kept.key;
  }

  /** Forgets every kept key (after a revoke through this process, which then applies at once). */
  forget(): void {
    this.#kept.clear();
  }

  #touch(kept: KeptKey, now: number): void {
    if (now - kept.touchedAt < this.#touchEveryMs) return;
    kept.touchedAt = now;
    this.#keys
      .touch(kept.key.id, new Date(now).toISOString())
      .catch((error: unknown) => this.#onError(error));
  }
}
