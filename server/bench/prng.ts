/**
 * A small seeded pseudo-random number generator (mulberry32) and the helpers the dataset generator needs:
 * the same seed always gives the same dataset, on every machine.
 */

import type { Random } from '../../shared/bench/prng.js';

export { mulberry32 } from '../../shared/bench/prng.js';
export type { Random } from '../../shared/bench/prng.js';

/** An integer in [min, max], both included. */
export function randomInt(rnd: Random, min: number, max: number): number {
  return min + Math.floor(rnd() * (max - min + 1));
}

/**
 * Draws words with Zipf-like frequencies: the word of rank `r` (1-based) has weight `1 / r^exponent`, so the
 * first word is the most common, the second about half as common, and so on.
 */
export class ZipfSampler {
  readonly #words: readonly string[];
  readonly #cumulative: Float64Array;

  /** @param words the vocabulary, most common first */
  constructor(words: readonly string[], exponent = 1.05) {
    if (words.length === 0)
      throw new Error('ZipfSampler needs at least one word');
    this.#words = words;
    this.#cumulative = new Float64Array(words.length);
    let sum = 0;
    for (let i = 0; i < words.length; i++) {
      sum += 1 / (i + 1) ** exponent;
      this.#cumulative[i] = sum;
    }
    for (let i = 0; i < words.length; i++) {
      this.#cumulative[i] = (this.#cumulative[i] ?? 0) / sum;
    }
  }

  /** The vocabulary, most common first. */
  get words(): readonly string[] {
    return this.#words;
  }

  /** One word, by binary search on the cumulative weights. */
  sample(rnd: Random): string {
    const u = rnd();
    let lo = 0;
    let hi = this.#cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.#cumulative[mid] ?? 1) > u) hi = mid;
      else lo = mid + 1;
    }
    return this.#words[lo] ?? '';
  }

  /** `count` distinct words (fewer if the vocabulary is smaller), in draw order. */
  sampleDistinct(rnd: Random, count: number): string[] {
    const out = new Set<string>();
    const want = Math.min(count, this.#words.length);
    for (let tries = 0; out.size < want && tries < want * 20; tries++) {
      out.add(this.sample(rnd));
    }
    return [...out];
  }
}
