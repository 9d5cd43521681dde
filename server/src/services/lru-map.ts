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
