/**
 * Remembers hashes of the last few thousand keys asked for, in fixed memory, so a cache can admit only
 * what is asked for a second time: a stream of distinct requests then costs one hash each and fills
 * nothing, while anything that repeats is kept from its second use on.
 */
export class Doorkeeper {
  readonly #seen = new Set<number>();
  readonly #ring: Int32Array;
  #next = 0;

  constructor(size = 16_384) {
    this.#ring = new Int32Array(Math.max(1, size));
  }

  /** Records `key`; `true` when it was already among the recent keys. */
  admit(key: string): boolean {
    const hash = fnv1a(key);
    if (this.#seen.has(hash)) return true;
    const evicted = this.#ring[this.#next];
    if (evicted !== undefined && evicted !== 0) this.#seen.delete(evicted);
    this.#ring[this.#next] = hash;
    this.#next = (this.#next + 1) % this.#ring.length;
    this.#seen.add(hash);
    return false;
  }
}

/** 32-bit FNV-1a over UTF-16 code units; never 0 (0 marks an empty ring slot). */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash | 1;
}
