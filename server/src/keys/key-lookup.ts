import type { KeyRepository, StoredKey } from '../storage/key-repository.js';
import { SECRET_PREFIX, sameHash, secretHash } from './key-secret.js';

/** Options of {@link KeyLookup}. */
export interface KeyLookupOptions {
  /**
   * How long a key read from storage is trusted, in ms (default 500): a key revoked on another instance
   * is refused here at most this long after the revoke.
   */
  readonly ttlMs?: number;
  /** Least time between two records of a key's use, in ms (default 60,000). */
  readonly touchEveryMs?: number;
  /** Bytes the kept keys may take (default 1 MiB; about 2,000 keys). */
  readonly budgetBytes?: number;
  /** The clock (ms). */
  readonly now?: () => number;
  /** Where failures of the background use records go. */
  readonly onError?: (error: unknown) => void;
}

interface Kept {
  readonly key: StoredKey | null;
  readonly until: number;
  readonly bytes: number;
}

/** A kept key's weight: its fields' text, plus the map entry. */
const weigh = (key: StoredKey | null): number =>
  128 + (key === null ? 0 : JSON.stringify(key).length * 2);

/**
 * Finds the stored key of a presented secret, keeping what it read for a short while (so a request with
 * a key costs no query most of the time), within a byte budget. Secrets are never kept or logged: the
 * map is keyed by their digests. A key's use is recorded at most once a minute, in the background.
 */
export class KeyLookup {
  readonly #keys: KeyRepository;
  readonly #ttlMs: number;
  readonly #touchEveryMs: number;
  readonly #budget: number;
  readonly #now: () => number;
  readonly #onError: (error: unknown) => void;
  readonly #kept = new Map<string, Kept>();
  readonly #touched = new Map<string, number>();
  #bytes = 0;
  #anyUntil = 0;
  #any = false;

  constructor(keys: KeyRepository, options: KeyLookupOptions = {}) {
    this.#keys = keys;
    this.#ttlMs = options.ttlMs ?? 500;
    this.#touchEveryMs = options.touchEveryMs ?? 60_000;
    this.#budget = options.budgetBytes ?? 1024 * 1024;
    this.#now = options.now ?? (() => Date.now());
    this.#onError = options.onError ?? (() => undefined);
  }

  /** Whether any key was ever stored (once one is, that stays so). */
  async anyKeys(): Promise<boolean> {
    if (this.#any || this.#now() < this.#anyUntil) return this.#any;
    this.#any = await this.#keys.hasAny();
    this.#anyUntil = this.#now() + this.#ttlMs;
    return this.#any;
  }

  /** The stored key this secret opens (revoked and expired ones included), or `null`. */
  async find(secret: string): Promise<StoredKey | null> {
    if (!secret.startsWith(SECRET_PREFIX)) return null;
    const hash = secretHash(secret);
    const now = this.#now();
    const kept = this.#kept.get(hash);
    let key: StoredKey | null;
    if (kept !== undefined && now < kept.until) {
      key = kept.key;
    } else {
      key = await this.#keys.findByHash(hash);
      // Found by its digest; compared once more in constant time.
      if (key !== null && !sameHash(key.secretHash, hash)) key = null;
      this.#keep(hash, key, now);
    }
    if (key !== null && key.revokedAt === null) this.#touch(key.id, now);
    return key;
  }

  /** Forgets every kept key (after a revoke through this process, which then applies at once). */
  forget(): void {
    this.#kept.clear();
    this.#bytes = 0;
  }

  #keep(hash: string, key: StoredKey | null, now: number): void {
    const old = this.#kept.get(hash);
    if (old !== undefined) {
      this.#kept.delete(hash);
      this.#bytes -= old.bytes;
    }
    // Unknown secrets are not kept: invented ones would only push real keys out.
    if (key === null) return;
    const bytes = weigh(key);
    this.#kept.set(hash, { key, until: now + this.#ttlMs, bytes });
    this.#bytes += bytes;
    for (const [oldest, entry] of this.#kept) {
      if (this.#bytes <= this.#budget) break;
      this.#kept.delete(oldest);
      this.#bytes -= entry.bytes;
    }
  }

  #touch(id: string, now: number): void {
    const last = this.#touched.get(id);
    if (last !== undefined && now - last < this.#touchEveryMs) return;
    this.#touched.delete(id);
    this.#touched.set(id, now);
    // Bounded like the kept keys: the oldest records go first.
    if (this.#touched.size > 10_000) {
      const oldest = this.#touched.keys().next().value;
      if (oldest !== undefined) this.#touched.delete(oldest);
    }
    this.#keys
      .touch(id, new Date(now).toISOString())
      .catch((error: unknown) => this.#onError(error));
  }
}
