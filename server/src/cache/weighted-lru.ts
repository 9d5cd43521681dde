/** Counters of one cache, for `/metrics` and tests. */
export interface CacheStats {
  readonly name: string;
  readonly entries: number;
  /** Summed weight of the entries: the bytes they keep alive. */
  readonly bytes: number;
  /** The cache's share of `CACHE_BYTES`. */
  readonly budget: number;
  readonly hits: number;
  readonly misses: number;
  readonly evictions: number;
}

/** Options of {@link WeightedLru}. */
export interface WeightedLruOptions {
  /** Name in stats and metrics. */
  readonly name: string;
  /** Upper bound of the summed weights, in bytes. */
  readonly budget: number;
}

interface Slot<V> {
  value: V;
  weight: number;
}

/**
 * The one LRU class of the server: a `Map` in recency order (oldest first) bounded by the summed weight of
 * its entries, where a weight is the memory the entry keeps alive. An entry may grow after it was stored
 * (lazily built parts): {@link reweigh} records that and evicts as needed, so the budget holds at all times.
 */
export class WeightedLru<K, V> {
  readonly name: string;
  readonly budget: number;
  readonly #map = new Map<K, Slot<V>>();
  #bytes = 0;
  #hits = 0;
  #misses = 0;
  #evictions = 0;

  constructor(options: WeightedLruOptions) {
    this.name = options.name;
    this.budget = Math.max(0, options.budget);
  }

  /** The value under `key` (now the most recently used), or `undefined`; counted as a hit or a miss. */
  get(key: K): V | undefined {
    const slot = this.#map.get(key);
    if (slot === undefined) {
      this.#misses++;
      return undefined;
    }
    this.#hits++;
    this.#map.delete(key);
    this.#map.set(key, slot);
    return slot.value;
  }

  /** The value under `key` without touching recency or the counters. */
  peek(key: K): V | undefined {
    return this.#map.get(key)?.value;
  }

  /**
   * Stores `value` with its weight; returns `false` (and stores nothing) when it alone is heavier than the
   * whole budget. Older entries are evicted until the budget holds.
   */
  set(key: K, value: V, weight: number): boolean {
    this.delete(key);
    if (!(weight <= this.budget)) return false;
    this.#map.set(key, { value, weight });
    this.#bytes += weight;
    this.#evictFor(key);
    return true;
  }

  /**
   * Stores `value` only if it fits in the budget beside the entries already held (none is evicted for it);
   * returns whether it was stored.
   */
  setIfRoom(key: K, value: V, weight: number): boolean {
    if (!this.hasRoom(key, weight)) return false;
    return this.set(key, value, weight);
  }

  /** Whether an entry of `key` weighing `weight` fits beside the others held, evicting none. */
  hasRoom(key: K, weight: number): boolean {
    const held = this.#map.get(key)?.weight ?? 0;
    return this.#bytes - held + weight <= this.budget;
  }

  /** Records a new weight for `key` (it grew or shrank); an entry now heavier than the budget is dropped. */
  reweigh(key: K, weight: number): void {
    const slot = this.#map.get(key);
    if (slot === undefined) return;
    this.#bytes += weight - slot.weight;
    slot.weight = weight;
    if (!(weight <= this.budget)) {
      this.delete(key);
      this.#evictions++;
      return;
    }
    this.#evictFor(key);
  }

  delete(key: K): void {
    const slot = this.#map.get(key);
    if (slot === undefined) return;
    this.#map.delete(key);
    this.#bytes -= slot.weight;
  }

  /** The keys and weights held, least recently used first (for an admission policy to weigh its victims). */
  *oldest(): Generator<[K, number]> {
    for (const [key, slot] of this.#map) yield [key, slot.weight];
  }

  /** The summed weight of the entries held. */
  get bytes(): number {
    return this.#bytes;
  }

  clear(): void {
    this.#map.clear();
    this.#bytes = 0;
  }

  stats(): CacheStats {
    return {
      name: this.name,
      entries: this.#map.size,
      bytes: this.#bytes,
      budget: this.budget,
      hits: this.#hits,
      misses: this.#misses,
      evictions: this.#evictions,
    };
  }

  /** Evicts least recently used entries other than `keep` until the budget holds. */
  #evictFor(keep: K): void {
    if (this.#bytes <= this.budget) return;
    for (const [key, slot] of this.#map) {
      if (this.#bytes <= this.budget) return;
      if (key === keep) continue;
      this.#map.delete(key);
      this.#bytes -= slot.weight;
      this.#evictions++;
    }
  }
}
