/**
 * What a config's summary holds (`cache/summary-index.ts`) and what a search asks of it: the hashes of
 * every trigram of the folded texts of its links (as the per-config signatures hash them), of every word
 * pair (the seven characters around a space: the end of one word, the start of the next) and of every
 * tag. A search's terms give the buckets a config must have to hold a match: those of `q`, of the tag,
 * and of the literals every match of the regex contains (one list per way of matching).
 *
 * Word pairs are what trigrams cannot tell: a config of 500 links holds nearly every trigram of its
 * vocabulary's words and of the spaces between them, so `noodle track` passes wherever both words occur,
 * while the pair `dle tra` occurs only where one follows the other.
 */
import type { SummarySets, SummaryWay } from '../cache/summary-index.js';
import type { ConfigSearchIndex } from './search-index.js';
import { plain, trigramHash } from './search-index.js';

/** A tag's bucket: its text hashed apart from trigrams (a tag matches exactly, case included). */
function tagHash(tag: string): number {
  let h = 0x2f6b_5d3a;
  for (let i = 0; i < tag.length; i++) {
    h = Math.imul(h ^ tag.charCodeAt(i), 0x0100_0193);
  }
  return (h ^ (h >>> 15)) >>> 0;
}

/** Characters of a word pair: {@link PAIR_SIDE} before a space, the space, as many after. */
const PAIR_SIDE = 3;
const PAIR = 2 * PAIR_SIDE + 1;

/**
 * A word pair's bucket: the {@link PAIR} characters of `text` from `i` (a space in the middle), hashed
 * apart from trigrams and tags.
 */
function pairHash(text: string, i: number): number {
  let h = 0x6a09_e667;
  for (let j = i; j < i + PAIR; j++) {
    h = Math.imul(h ^ text.charCodeAt(j), 0x0100_0193);
  }
  return (h ^ (h >>> 15)) >>> 0;
}

/**
 * Whether `text` has a space at `p` with {@link PAIR_SIDE} characters on each side (the haystack's
 * field separators excluded: no query text holds one).
 */
function pairAt(text: string, p: number): boolean {
  return (
    text.charCodeAt(p) === 0x20 &&
    p >= PAIR_SIDE &&
    p + PAIR_SIDE < text.length &&
    plain(text, p - PAIR_SIDE) &&
    plain(text, p + 1)
  );
}

/**
 * Hands every trigram of `text` (outside the haystack's field separators) and every word pair to the two
 * callbacks, hashed: the one rule for what a config's summary holds and what a query asks of it.
 */
function eachTerm(
  text: string,
  trigram: (hash: number) => void,
  pair: (hash: number) => void,
): void {
  for (let p = 0; p + 3 <= text.length; p++) {
    if (plain(text, p)) trigram(trigramHash(text, p));
    if (pairAt(text, p)) pair(pairHash(text, p - PAIR_SIDE));
  }
}

/** The hashes of a config's version: every trigram of its folded texts and every tag; its word pairs. */
export function summaryBuckets(index: ConfigSearchIndex): SummarySets {
  const terms = new Set<number>();
  const pairs = new Set<number>();
  eachTerm(
    index.haystack,
    (h) => terms.add(h),
    (h) => pairs.add(h),
  );
  for (const tag of index.tags.keys()) terms.add(tagHash(tag));
  return { terms, pairs };
}

/** The terms of a search, as the summary can tell them (texts folded, as the haystack holds them). */
export interface SummaryTerms {
  readonly tag: string | undefined;
  readonly q: string | undefined;
  /** Literals a match of the regex contains (all of one list), or null. */
  readonly literals: readonly (readonly string[])[] | null;
}

/** Adds the trigrams and word pairs of a folded text (no trigram below three characters) to `way`. */
function addText(way: { terms: number[]; pairs: number[] }, text: string) {
  eachTerm(
    text,
    (h) => way.terms.push(h),
    (h) => way.pairs.push(h),
  );
}

/**
 * The ways a config may hold a match (it must hold every term of one), or `null` when the terms narrow
 * nothing (then every config is searched).
 */
export function summaryQuery(terms: SummaryTerms): SummaryWay[] | null {
  const way = (texts: readonly string[]): SummaryWay => {
    const out = { terms: [] as number[], pairs: [] as number[] };
    if (terms.tag !== undefined) out.terms.push(tagHash(terms.tag));
    for (const text of texts) addText(out, text);
    return out;
  };
  const base = terms.q === undefined ? [] : [terms.q];
  const ways =
    terms.literals === null
      ? [way(base)]
      : terms.literals.map((all) => way([...base, ...all]));
  // A text has pairs only if it has trigrams: a way without terms narrows nothing.
  return ways.some((w) => w.terms.length === 0) ? null : ways;
}
