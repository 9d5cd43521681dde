/**
 * What a config's summary holds (`cache/summary-index.ts`) and what a search asks of it: the hashes of
 * every trigram of the folded texts of its links (as the per-config signatures hash them) and of every
 * tag. A search's terms give the buckets a config must have to hold a match: those of `q`, of the tag,
 * and of the literals every match of the regex contains (one list per way of matching).
 */
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

/** The buckets of a config's version: every trigram of its folded texts and every tag. */
export function summaryBuckets(index: ConfigSearchIndex): Set<number> {
  const out = new Set<number>();
  const { haystack } = index;
  for (let p = 0; p + 3 <= haystack.length; p++) {
    if (plain(haystack, p)) out.add(trigramHash(haystack, p));
  }
  for (const tag of index.tags.keys()) out.add(tagHash(tag));
  return out;
}

/** The terms of a search, as the summary can tell them (texts folded, as the haystack holds them). */
export interface SummaryTerms {
  readonly tag: string | undefined;
  readonly q: string | undefined;
  /** Literals a match of the regex contains (all of one list), or null. */
  readonly literals: readonly (readonly string[])[] | null;
}

/** The trigram buckets of a folded text (none below three characters). */
function textBuckets(text: string): number[] {
  const out: number[] = [];
  for (let i = 0; i + 3 <= text.length; i++) out.push(trigramHash(text, i));
  return out;
}

/**
 * The bucket lists a config must hold all of one of to hold a match, or `null` when the terms narrow
 * nothing (then every config is searched).
 */
export function summaryQuery(terms: SummaryTerms): number[][] | null {
  const base: number[] = [];
  if (terms.tag !== undefined) base.push(tagHash(terms.tag));
  if (terms.q !== undefined) base.push(...textBuckets(terms.q));
  const ways =
    terms.literals === null
      ? [base]
      : terms.literals.map((all) => [...base, ...all.flatMap(textBuckets)]);
  return ways.some((buckets) => buckets.length === 0) ? null : ways;
}
