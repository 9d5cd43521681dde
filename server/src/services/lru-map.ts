/** A `Map` bounded by entry count that forgets the least recently used key first. */
export class LruMap<K, V> {
  readonly #map = new Map<K, V>();
  readonly #max: number;

  constructor(maxEntries: number) {
    this.#max = Math.max(1, maxEntries);
  }

  get(key: K): V | undefined {
    const value = this.#map.get(key);
    if (value !== undefined) {
      this.#map.delete(key);
      this.#map.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    this.#map.delete(key);
    this.#map.set(key, value);
    if (this.#map.size > this.#max) {
      const oldest = this.#map.keys().next();
      if (oldest.done !== true) this.#map.delete(oldest.value);
    }
  }

  get size(): number {
    return this.#map.size;
  }
}

/** A `Map` bounded by summed weight (approximate bytes) that forgets the least recently used key first. */
export class WeightedLru<K, V> {
  readonly #map = new Map<K, { value: V; weight: number }>();
  readonly #max: number;
  #weight = 0;

  constructor(maxWeight: number) {
    this.#max = maxWeight;
  }

  get(key: K): V | undefined {
    const slot = this.#map.get(key);
    if (slot === undefined) return undefined;
    this.#map.delete(key);
    this.#map.set(key, slot);
    return slot.value;
  }

  /** Caches a value; one heavier than the whole budget is not cached. */
  set(key: K, value: V, weight: number): void {
    const old = this.#map.get(key);
    if (old !== undefined) {
      this.#map.delete(key);
      this.#weight -= old.weight;
    }
    if (weight > this.#max) return;
    this.#map.set(key, { value, weight });
    this.#weight += weight;
    for (const [oldest, slot] of this.#map) {
      if (this.#weight <= this.#max) break;
      this.#map.delete(oldest);
      this.#weight -= slot.weight;
    }
  }

  /** Summed weight of the cached values. */
  get weight(): number {
    return this.#weight;
  }
}
