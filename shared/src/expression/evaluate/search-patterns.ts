/**
 * Search-pattern atoms `/key/fields` (docs/expression-reference.md §8): lookup, field selection, the `age`
 * filter, the 100-match cap, then `sort` and `limit`.
 */
import { runAtOnce } from '../../util/slices.js';
import type { Sliced } from '../../util/slices.js';
import { compareText } from './collation.js';
import type { EngineCache, PosList } from '../engine-cache.js';
import type { EvalContext, SearchScans } from './eval-context.js';
import { TokenKind } from '../syntax/token-kind.js';
import type { Token } from '../syntax/token-kind.js';
import type { PreparedLink } from '../types.js';
import { isDigit, isWhitespace } from '../syntax/whitespace.js';
import type { RE2JS } from 're2js';

/** Most REGEX atoms evaluated per expression (docs/expression-reference.md §8.1); later ones are `∅`. */
export const MAX_SEARCH_ATOMS = 5;

/** The scan of one atom stops at this many matches, before sorting (docs/expression-reference.md §8.3). */
export const MAX_SEARCH_MATCHES = 100;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const AGE_UNITS: Readonly<Record<string, number>> = {
  h: HOUR,
  d: DAY,
  w: 7 * DAY,
  m: 30 * DAY,
};

/** Which fields a search looks at (docs/expression-reference.md §8.2). */
interface FieldSelection {
  readonly label: boolean;
  readonly url: boolean;
  readonly tags: boolean;
  readonly description: boolean;
  readonly id: boolean;
}

const ALL_FIELDS: FieldSelection = {
  label: true,
  url: true,
  tags: true,
  description: true,
  id: true,
};

/** Reads a field string: whitespace and commas removed, unknown letters skipped, none known → all. */
export function parseFieldString(text: string): FieldSelection {
  const has = (letter: string): boolean =>
    text.includes(letter) || text.includes('a');
  const selection: FieldSelection = {
    label: has('l'),
    url: has('u'),
    tags: has('t'),
    description: has('d'),
    id: has('k'),
  };
  return Object.values(selection).some(Boolean) ? selection : ALL_FIELDS;
}

/**
 * The `age` option in ms (docs/expression-reference.md §8.3); 0 when absent, malformed, zero or not a string
 * (D2).
 */
export function parseAge(age: unknown): number {
  if (typeof age !== 'string' || age.length < 2) return 0;
  let i = 0;
  while (i < age.length && isDigit(age.charCodeAt(i))) i++;
  if (i === 0) return 0;
  const digits = age.slice(0, i);
  while (i < age.length - 1 && isWhitespace(age.charCodeAt(i))) i++;
  if (i !== age.length - 1) return 0;
  const letter = age.charAt(i);
  if (!/^[hdwm]$/i.test(letter)) return 0; // ASCII letters only
  return Number(digits) * (AGE_UNITS[letter.toLowerCase()] ?? 0);
}

/**
 * The `limit` option as a slice end (docs/expression-reference.md §8.3): absent or `null` → 100, else
 * `Number()` truncated, NaN → 0.
 */
export function parseSearchLimit(limit: unknown): number {
  if (limit === undefined || limit === null) return MAX_SEARCH_MATCHES;
  try {
    const n = Math.trunc(Number(limit));
    return Number.isNaN(n) ? 0 : n;
  } catch {
    return 0;
  }
}

/** Whether `regex` is found in a selected field of the link (docs/expression-reference.md §8.2). */
function matchesLink(
  regex: RE2JS,
  fields: FieldSelection,
  entry: { readonly id: string; readonly link: PreparedLink },
): boolean {
  const { id, link } = entry;
  if (fields.id && regex.test(id)) return true;
  if (fields.label && link.label && regex.test(link.label)) return true;
  if (fields.url && regex.test(link.url)) return true;
  if (fields.description && link.description && regex.test(link.description)) {
    return true;
  }
  if (fields.tags && link.tags) {
    for (const tag of link.tags) if (regex.test(tag)) return true;
  }
  return false;
}

/** Numeric comparison that stays consistent for infinities. */
function compareNumbers(a: number, b: number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Sorts matches per the `sort` option (stable); any other value keeps catalog order. */
function sortMatches(
  matches: number[],
  sort: unknown,
  cache: EngineCache,
): number[] {
  const stamp = (pos: number): number => cache.createdAt[pos] || 0;
  switch (sort) {
    case 'alpha': {
      const ids = cache.prepared.ids;
      return matches.sort((a, b) => compareText(ids[a] ?? '', ids[b] ?? ''));
    }
    case 'newest':
      return matches.sort((a, b) => compareNumbers(stamp(b), stamp(a)));
    case 'oldest':
      return matches.sort((a, b) => compareNumbers(stamp(a), stamp(b)));
    default:
      return matches;
  }
}

/** Links scanned between two points where a scan may pause (`util/slices.ts`). */
const LINKS_PER_STEP = 64;

/**
 * The scan (docs/expression-reference.md §8.2, §8.3): catalog order, age filter, field match, stop at the
 * 100th match. It may pause between links (a scan of a large config runs in slices, see
 * {@link scanningSearchAtoms}).
 */
function* scanning(
  cache: EngineCache,
  search: { readonly regex: RE2JS; readonly fields: FieldSelection },
  age: { readonly ms: number; readonly now: number },
): Sliced<number[]> {
  const ids = cache.prepared.ids;
  const stamps = age.ms > 0 ? cache.createdAt : undefined;
  const matches: number[] = [];
  for (let pos = 0; pos < cache.size; pos++) {
    if (pos % LINKS_PER_STEP === LINKS_PER_STEP - 1) yield;
    if (stamps !== undefined) {
      const ts = stamps[pos] ?? 0;
      if (ts === 0 || !(age.now - ts <= age.ms)) continue;
    }
    const link = cache.links[pos];
    const id = ids[pos];
    if (link === undefined || id === undefined) continue;
    if (!matchesLink(search.regex, search.fields, { id, link })) continue;
    matches.push(pos);
    if (matches.length >= MAX_SEARCH_MATCHES) break;
  }
  return matches;
}

/** What a search atom asks of a prepared config: its pattern, fields and age, and its result's key. */
interface SearchPlan {
  readonly regex: RE2JS;
  readonly options: Readonly<Record<string, unknown>>;
  readonly fields: FieldSelection;
  readonly ageMs: number;
  /** The atom's key and field selection: equal plans give equal results (at one `now`). */
  readonly key: string;
}

/** The plan of a search atom, or `null` for an unknown key or a refused pattern (`∅`). */
function planOf(
  context: Pick<EvalContext, 'prepared'>,
  token: { readonly key: string; readonly fields: string },
): SearchPlan | null {
  const entry = context.prepared.searchPatterns.get(token.key);
  if (entry === undefined || entry.regex === null) return null;
  const { regex, options } = entry;
  const optionFields = options['fields'];
  const fieldText =
    token.fields !== ''
      ? token.fields
      : typeof optionFields === 'string'
        ? optionFields
        : '';
  const fields = fieldText === '' ? ALL_FIELDS : parseFieldString(fieldText);
  return {
    regex,
    options,
    fields,
    ageMs: parseAge(options['age']),
    key: `${token.key}\u0000${Object.values(fields).join()}`,
  };
}

/**
 * Evaluates one search atom whose counter position is already checked. Unknown keys, and patterns that
 * the heuristic or re2js refused, give `∅`. Results that do not depend on the clock are cached per
 * prepared config; a scan made ahead for this resolution (`scans`) is used instead of scanning again.
 */
export function searchAtom(
  context: Pick<EvalContext, 'prepared' | 'cache' | 'now' | 'scans'>,
  token: { readonly key: string; readonly fields: string },
): PosList {
  const plan = planOf(context, token);
  if (plan === null) return [];
  const { cache } = context;
  const { ageMs, key, options } = plan;
  if (ageMs === 0) {
    const hit = cache.searchResults.get(key);
    if (hit !== undefined) return hit;
  }
  const matches = [
    ...(context.scans?.get(key) ??
      runAtOnce(scanning(cache, plan, { ms: ageMs, now: context.now }))),
  ];
  const sorted = sortMatches(matches, options['sort'], cache);
  const result = sorted.slice(0, parseSearchLimit(options['limit']));
  if (ageMs === 0) cache.searchResults.set(key, result);
  return result;
}

/**
 * The scans the search atoms of `tokens` will need (the first {@link MAX_SEARCH_ATOMS} of them, the
 * others select nothing), made in steps that may pause between links, so that evaluation, which cannot
 * pause, finds them made (`EvalContext.scans`): a search pattern over a large config runs in slices.
 * Results already cached are not scanned again. Changes no result.
 */
export function* scanningSearchAtoms(
  context: Pick<EvalContext, 'prepared' | 'cache' | 'now'>,
  tokens: readonly Token[],
): Sliced<SearchScans> {
  const scans = new Map<string, readonly number[]>();
  let atoms = 0;
  for (const token of tokens) {
    if (token.kind !== TokenKind.REGEX) continue;
    if (++atoms > MAX_SEARCH_ATOMS) break;
    const plan = planOf(context, token);
    if (plan === null || scans.has(plan.key)) continue;
    if (plan.ageMs === 0 && context.cache.searchResults.has(plan.key)) {
      continue;
    }
    scans.set(
      plan.key,
      yield* scanning(context.cache, plan, {
        ms: plan.ageMs,
        now: context.now,
      }),
    );
  }
  return scans;
}
