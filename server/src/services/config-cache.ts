/**
 * A bounded LRU cache of the per-version work done on stored configs: parsing, sanitizing, serializing,
 * preparing for the engine and indexing for search. Entries are keyed by name and checked against the
 * stored version on every use, so a stale entry is never served.
 */
export interface CacheOptions {
  /** Upper bound on the summed `weight` of the entries (roughly bytes of stored JSON). */
  readonly maxWeight: number;
}

/** A cached value with the stored version it belongs to and its weight. */
export interface Slot<V> {
  readonly version: number;
  readonly value: V;
  readonly weight: number;
}

/** LRU map with a weight budget: `get` refreshes recency, `set` evicts the least recently used. */
export class VersionedCache<V> {
  readonly #slots = new Map<string, Slot<V>>();
  #weight = 0;
  readonly #maxWeight: number;

  constructor(options: CacheOptions) {
    this.#maxWeight = options.maxWeight;
  }

  /** The value cached for exactly this version, or `undefined`. */
  get(key: string, version: number): V | undefined {
    const slot = this.#slots.get(key);
    if (slot === undefined) return undefined;
    if (slot.version !== version) {
      this.delete(key);
      return undefined;
    }
    this.#slots.delete(key);
    this.#slots.set(key, slot);
    return slot.value;
  }

  /** The cached value of a key, whatever its version, without touching recency. */
  peek(key: string): V | undefined {
    return this.#slots.get(key)?.value;
  }

  /** Caches a value; a value heavier than the whole budget is not cached at all. */
  set(key: string, slot: Slot<V>): void {
    this.delete(key);
    if (slot.weight > this.#maxWeight) return;
    this.#slots.set(key, slot);
    this.#weight += slot.weight;
    for (const [oldest, old] of this.#slots) {
      if (this.#weight <= this.#maxWeight) break;
      this.#slots.delete(oldest);
      this.#weight -= old.weight;
    }
  }

  delete(key: string): void {
    const slot = this.#slots.get(key);
    if (slot === undefined) return;
    this.#slots.delete(key);
    this.#weight -= slot.weight;
  }

  /** Entries and summed weight, for health output and tests. */
  stats(): { entries: number; weight: number } {
    return { entries: this.#slots.size, weight: this.#weight };
  }
}
