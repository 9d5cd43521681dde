/**
 * The common-terms mix (issue 33): searches whose terms are drawn by frequency from the dataset's own
 * vocabulary, as real users search, rather than every word and tag in turn. A common word comes often,
 * but never twice the same way: its k-th draw is its k-th variant (spelling, field order, `limit`), so
 * every request of a run is still distinct. Common terms fill `limit` within the first configs, so what
 * these scenarios measure is the cost of each test of a link, not of reading every config.
 */
import { TAG_FREQUENCY, WORD_FREQUENCY } from '../dataset.js';
import { mulberry32 } from '../prng.js';
import type { Random, ZipfSampler } from '../prng.js';
import { get } from './request-sequences.js';
import type { BenchRequest, RequestSequence } from './request-sequences.js';
import {
  ALL_FIELD_ORDERS,
  caseVariants,
  LIMITS_NEAR_DEFAULT,
  searchPath,
} from './search-sequences.js';

/** Requests in each common-terms sequence (none repeats within them). */
export const COMMON_REQUESTS = 200_000;

/** The `limit` of pass `pass`: none on pass 0, then the values nearest the default first. */
const limitOf = (pass: number): string | undefined =>
  pass === 0 ? undefined : String(LIMITS_NEAR_DEFAULT[pass - 1] ?? 100);

/** How many passes {@link limitOf} has. */
const LIMIT_PASSES = 1 + LIMITS_NEAR_DEFAULT.length;

/** How a term drawn by frequency becomes a request. */
interface Drawing {
  /** Draws the next term (a word, a tag, a pair of words). */
  readonly draw: (rnd: Random) => string;
  /** How many variants a term has. */
  readonly variants: (term: string) => number;
  /** The `k`-th variant of a term, `k` < `variants(term)`. */
  readonly variant: (term: string, k: number) => BenchRequest;
}

/**
 * `size` requests drawn by frequency: each draw takes the term's next variant not sent before (a term
 * whose variants are used up is drawn again). Built on first use, as far as the index asked for, so the
 * same index always gives the same request.
 */
function drawnSequence(
  size: number,
  seed: number,
  drawing: Drawing,
): RequestSequence {
  const rnd = mulberry32(seed);
  const built: BenchRequest[] = [];
  const used = new Set<string>();
  const next = new Map<string, number>();
  const extend = () => {
    for (;;) {
      const term = drawing.draw(rnd);
      const limit = drawing.variants(term);
      for (let k = next.get(term) ?? 0; k < limit; k++) {
        const request = drawing.variant(term, k);
        if (used.has(request.path)) continue;
        next.set(term, k + 1);
        used.add(request.path);
        built.push(request);
        return;
      }
      next.set(term, limit);
    }
  };
  return {
    size,
    at: (index) => {
      const i = index % size;
      while (built.length <= i) extend();
      return built[i] as BenchRequest;
    },
  };
}

/** Each word's spellings in mixed case (lower, capitalized, upper, then seeded mixtures). */
function spellingsOf(
  sampler: ZipfSampler,
  seed: number,
): Map<string, string[]> {
  const rnd = mulberry32(seed);
  return new Map(sampler.words.map((w) => [w, caseVariants(w, 6, rnd)]));
}

/**
 * `/search?q=` with words drawn by their frequency in the dataset; the k-th draw of a word is its k-th
 * (spelling, order of "all fields", `limit`).
 */
export function commonWordSequence(size = COMMON_REQUESTS): RequestSequence {
  const spellings = spellingsOf(WORD_FREQUENCY, 111);
  const fieldOrders = ALL_FIELD_ORDERS.length;
  return drawnSequence(size, 112, {
    draw: (rnd) => WORD_FREQUENCY.sample(rnd),
    variants: (word) =>
      (spellings.get(word)?.length ?? 1) * fieldOrders * LIMIT_PASSES,
    variant: (word, k) => {
      const spelled = spellings.get(word) ?? [word];
      const s = k % spelled.length;
      const f = Math.floor(k / spelled.length) % fieldOrders;
      const pass = Math.floor(k / (spelled.length * fieldOrders));
      const params: [string, string | undefined][] = [
        ['q', spelled[s]],
        ['fields', ALL_FIELD_ORDERS[f]],
      ];
      if ((f + s) % 2 === 1) params.reverse();
      params.push(['limit', limitOf(pass)]);
      return get(searchPath(params));
    },
  });
}

/**
 * `/search?tag=` with tags drawn by their frequency in the dataset (tags match exactly, so they are never
 * re-spelled); the k-th draw of a tag is its k-th (`fields` that leave a tag search unchanged, parameter
 * order, `limit`).
 */
export function commonTagSequence(size = COMMON_REQUESTS): RequestSequence {
  const fieldOrders = ALL_FIELD_ORDERS.length;
  return drawnSequence(size, 212, {
    draw: (rnd) => TAG_FREQUENCY.sample(rnd),
    variants: () => fieldOrders * 2 * LIMIT_PASSES,
    variant: (tag, k) => {
      const f = k % fieldOrders;
      const order = Math.floor(k / fieldOrders) % 2;
      const pass = Math.floor(k / (fieldOrders * 2));
      const params: [string, string | undefined][] = [
        ['tag', tag],
        ['fields', ALL_FIELD_ORDERS[f]],
        ['limit', limitOf(pass)],
      ];
      if (order === 1) params.reverse();
      return get(searchPath(params));
    },
  });
}

/**
 * `/search?regex=\b(A|B)\s+\w+&fields=label,description`: a word of two common ones followed by another
 * word, A and B drawn by frequency (A ≠ B); the k-th draw of a pair is its k-th (spelling of A, spelling of
 * B, `limit`).
 */
export function commonRegexSequence(size = COMMON_REQUESTS): RequestSequence {
  const spellings = spellingsOf(WORD_FREQUENCY, 311);
  const spelled = (w: string) => spellings.get(w) ?? [w];
  return drawnSequence(size, 312, {
    draw: (rnd) => {
      const a = WORD_FREQUENCY.sample(rnd);
      let b = WORD_FREQUENCY.sample(rnd);
      while (b === a) b = WORD_FREQUENCY.sample(rnd);
      return `${a} ${b}`;
    },
    variants: (pair) => {
      const [a = '', b = ''] = pair.split(' ');
      return spelled(a).length * spelled(b).length * LIMIT_PASSES;
    },
    variant: (pair, k) => {
      const [a = '', b = ''] = pair.split(' ');
      const as = spelled(a);
      const bs = spelled(b);
      const sa = as[k % as.length];
      const sb = bs[Math.floor(k / as.length) % bs.length];
      const pass = Math.floor(k / (as.length * bs.length));
      return get(
        searchPath([
          ['regex', `\\b(${sa}|${sb})\\s+\\w+`],
          ['fields', 'label,description'],
          ['limit', limitOf(pass)],
        ]),
      );
    },
  });
}
