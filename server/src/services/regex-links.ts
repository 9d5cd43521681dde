/**
 * The `regex` criterion of `/search` over one config's index: which links may match (their trigram
 * signatures allow every literal of one list a match needs), and whether a link matches (re2js, linear
 * time, on the selected fields whose folded text holds every literal of one list: a field without them
 * cannot match, so it is not tested).
 */
import type { SearchField } from '@linkconfig/shared';
import type { PatternTest } from './compiled-pattern.js';
import { foldCase } from '../versions/fold-case.js';
import {
  candidateLinks,
  FIELD_ORDER,
  fieldText,
  foldedField,
} from '../versions/search-index.js';
import type {
  ConfigSearchIndex,
  IndexedLink,
} from '../versions/search-index.js';

/** A compiled pattern, the literals a match needs (folded, haystack-safe; all of one list), the fields. */
export interface RegexQuery {
  readonly regex: PatternTest;
  readonly literals: readonly (readonly string[])[] | null;
  readonly fields: ReadonlySet<SearchField>;
}

/**
 * The positions (ascending) of the links whose trigram signatures allow every literal of one of the
 * lists, or `null` when a list narrows nothing (a literal shorter than a trigram: every link may match).
 * Several lists are merged as far as the search reads them (it stops at its limit).
 */
export function regexCandidates(
  index: ConfigSearchIndex,
  literals: readonly (readonly string[])[],
): Iterable<number> | null {
  const lists: (readonly number[])[] = [];
  for (const all of literals) {
    const some = candidateLinks(index, all);
    if (some === null) return null;
    lists.push(some);
  }
  const [only] = lists;
  return lists.length === 1 && only !== undefined
    ? only
    : ascendingUnion(lists);
}

/** Ascending lists merged, each position once, in ascending order, read as far as asked. */
function* ascendingUnion(
  lists: readonly (readonly number[])[],
): Generator<number> {
  const at = new Int32Array(lists.length);
  for (;;) {
    let least = Infinity;
    for (let i = 0; i < lists.length; i++) {
      const head = lists[i]?.[at[i] ?? 0];
      if (head !== undefined && head < least) least = head;
    }
    if (least === Infinity) return;
    yield least;
    for (let i = 0; i < lists.length; i++) {
      if (lists[i]?.[at[i] ?? 0] === least) at[i] = (at[i] ?? 0) + 1;
    }
  }
}

/** Whether a selected field of the link at `position` matches the pattern. */
export function regexMatches(
  index: ConfigSearchIndex,
  position: number,
  query: RegexQuery,
): boolean {
  const entry = index.links[position];
  return entry !== undefined && fieldsMatch(entry, query, { index, position });
}

/**
 * Whether a selected field of `entry` matches the pattern. The folded text of a field (looked at only
 * when the pattern has literals) is a slice of the haystack of `at.index`, where `entry` is at
 * `at.position`; without an index, the field's text folded here.
 */
export function fieldsMatch(
  entry: IndexedLink,
  { regex, literals, fields }: RegexQuery,
  at?: { readonly index: ConfigSearchIndex; readonly position: number },
): boolean {
  for (let f = 0; f < FIELD_ORDER.length; f++) {
    const field = FIELD_ORDER[f];
    if (field === undefined || !fields.has(field)) continue;
    if (literals !== null) {
      const folded =
        at === undefined
          ? foldCase(fieldText(entry, f))
          : foldedField(at.index, at.position, f);
      if (!holdsOne(folded, literals)) continue;
    }
    if (someFieldText(entry, field, regex.test)) return true;
  }
  return false;
}

/** Whether `folded` holds every literal of one of the lists. */
function holdsOne(
  folded: string,
  literals: readonly (readonly string[])[],
): boolean {
  for (const all of literals) {
    let every = true;
    for (const text of all) {
      if (!folded.includes(text)) {
        every = false;
        break;
      }
    }
    if (every) return true;
  }
  return false;
}

/**
 * Whether one of the texts of a field of a link passes `test` (a link has several tags, and may have no
 * label or description), without an array per call.
 */
export function someFieldText(
  entry: IndexedLink,
  field: SearchField,
  test: (text: string) => boolean,
): boolean {
  switch (field) {
    case 'id':
      return test(entry.id);
    case 'label':
      return entry.label !== undefined && test(entry.label);
    case 'url':
      return test(entry.url);
    case 'tags':
      return entry.tags.some((tag) => test(tag));
    case 'description':
      return entry.description !== undefined && test(entry.description);
  }
}
