/**
 * How often each key was asked for lately, estimated in fixed memory (a count-min sketch of small
 * counters, halved as they age): enough for a cache to tell a key asked for on most requests from one a
 * scan touches once in a while, whatever the number of distinct keys. Estimates never fall below the
 * true (aged) count; collisions only raise them.
 */
export class FrequencySketch {
  /** Two rows of counters, side by side. */
  readonly #counters: Uint8Array;
  readonly #mask: number;
  /** Increments until every counter is halved. */
  readonly #period: number;
  #untilAging: number;

  /** `width`: counters per row (rounded up to a power of two); memory is `2 × width` bytes. */
  constructor(width = 32_768) {
    let size = 1;
    while (size < width) size *= 2;
    this.#counters = new Uint8Array(2 * size);
    this.#mask = size - 1;
    this.#period = 8 * size;
    this.#untilAging = this.#period;
  }

  /** The bytes the sketch keeps. */
  get bytes(): number {
    return this.#counters.length;
  }

  /** Counts one use of `key`. */
  increment(key: string): void {
    const [a, b] = this.#slots(key);
    const counters = this.#counters;
    if ((counters[a] ?? 0) < 255) counters[a] = (counters[a] ?? 0) + 1;
    if ((counters[b] ?? 0) < 255) counters[b] = (counters[b] ?? 0) + 1;
    if (--this.#untilAging === 0) this.#age();
  }

  /** The estimated recent uses of `key`. */
  estimate(key: string): number {
    const [a, b] = this.#slots(key);
    return Math.min(this.#counters[a] ?? 0, this.#counters[b] ?? 0);
  }

  #slots(key: string): [number, number] {
    let h1 = 0x811c9dc5;
    let h2 = 0x9e3779b9;
    for (let i = 0; i < key.length; i++) {
      const c = key.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 0x01000193);
      h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    }
    h2 ^= h2 >>> 13;
    return [
      (h1 >>> 0) & this.#mask,
      this.#mask + 1 + ((h2 >>> 0) & this.#mask),
    ];
  }

  #age(): void {
    const counters = this.#counters;
    for (let i = 0; i < counters.length; i++) {
      counters[i] = (counters[i] ?? 0) >>> 1;
    }
    this.#untilAging = this.#period;
  }
}
