/**
 * Refiners `*name:arg*` (docs/expression-reference.md §9): sort, reverse, limit, skip, shuffle, unique.
 * Unknown names change nothing. Refiners never mutate their input list. Lists are catalog positions.
 */
import { compareText } from './collation.js';
import type { EngineCache, PosList } from '../engine-cache.js';
import { LINK_FIELD_ORDER } from '../types.js';
import type { EvalContext } from './eval-context.js';

/**
 * Most refiners applied per segment (docs/expression-reference.md §9); further ones are consumed and ignored.
 */
export const MAX_REFINERS = 10;

/**
 * Fields a prepared link can have (docs/expression-reference.md §13); any other name gives empty text for
 * every link.
 */
const LINK_FIELDS: ReadonlySet<string> = new Set(LINK_FIELD_ORDER);

/** Lists shorter than this are sorted by direct comparison instead of cached catalog-wide ranks. */
const DIRECT_SORT_MAX = 256;

/** The text of a value as sort and unique see it: missing or `null` → empty, else JavaScript's `String()`. */
function valueText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  try {
    return String(value);
  } catch {
    return '';
  }
}

/** The text of field `field` at `pos` (own fields only; `id` is the id). */
function fieldText(cache: EngineCache, pos: number, field: string): string {
  if (field === 'id') return cache.prepared.ids[pos] ?? '';
  const link = cache.links[pos];
  if (link === undefined || !Object.hasOwn(link, field)) return '';
  return valueText((link as Record<string, unknown>)[field]);
}

/**
 * Collation ranks of every link for `field`: equal texts share a rank, so sorting any list by rank
 * gives exactly the order of sorting it by the collation (both sorts are stable).
 */
function sortRanks(cache: EngineCache, field: string): Int32Array {
  let ranks = cache.sortRanks.get(field);
  if (ranks === undefined) {
    const texts = Array.from({ length: cache.size }, (_, pos) =>
      fieldText(cache, pos, field),
    );
    const order = texts.map((_, pos) => pos);
    order.sort((a, b) => compareText(texts[a] ?? '', texts[b] ?? ''));
    ranks = new Int32Array(cache.size);
    let rank = 0;
    order.forEach((pos, i) => {
      const prev = order[i - 1];
      if (
        prev !== undefined &&
        compareText(texts[prev] ?? '', texts[pos] ?? '') !== 0
      ) {
        rank++;
      }
      (ranks as Int32Array)[pos] = rank;
    });
    cache.sortRanks.set(field, ranks);
  }
  return ranks;
}

/** Stable counting sort of `list` by `ranks` (ranks are below the catalog size): O(n + size). */
function countingSort(list: PosList, ranks: Int32Array, size: number): PosList {
  const starts = new Int32Array(size + 1);
  for (const pos of list) {
    const next = (ranks[pos] ?? 0) + 1;
    starts[next] = (starts[next] ?? 0) + 1;
  }
  for (let r = 1; r <= size; r++)
    starts[r] = (starts[r] ?? 0) + (starts[r - 1] ?? 0);
  const out = new Array<number>(list.length);
  for (const pos of list) {
    const rank = ranks[pos] ?? 0;
    const at = starts[rank] ?? 0;
    out[at] = pos;
    starts[rank] = at + 1;
  }
  return out;
}

/**
 * Whether to sort `count` items by direct comparison rather than by catalog-wide ranks: small lists
 * always; otherwise until the items sorted directly for this field add up to the catalog size, after
 * which building the ranks once (one catalog-wide sort) has paid for itself.
 */
function sortDirectly(
  cache: EngineCache,
  field: string,
  count: number,
): boolean {
  if (count < DIRECT_SORT_MAX) return true;
  if (cache.sortRanks.has(field)) return false;
  const work = (cache.directSortWork.get(field) ?? 0) + count;
  cache.directSortWork.set(field, work);
  return work < cache.size;
}

function sortBy(list: PosList, cache: EngineCache, field: string): PosList {
  if (!isFieldName(field)) return list; // same text for all
  if (sortDirectly(cache, field, list.length)) {
    const keyed = list.map((pos) => ({
      pos,
      key: fieldText(cache, pos, field),
    }));
    keyed.sort((a, b) => compareText(a.key, b.key));
    return keyed.map((entry) => entry.pos);
  }
  const ranks = sortRanks(cache, field);
  if (list.length * 16 < cache.size) {
    return list.slice().sort((a, b) => (ranks[a] ?? 0) - (ranks[b] ?? 0));
  }
  return countingSort(list, ranks, cache.size);
}

function shuffle(list: PosList, random: () => number): PosList {
  const out = list.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const r = random();
    const j = Math.min(i, Math.max(0, Math.floor(r * (i + 1)))) || 0;
    const held = out[i] as number;
    out[i] = out[j] as number;
    out[j] = held;
  }
  return out;
}

/** Numbers per link that are equal exactly when the texts of `field` are equal. */
function valueIds(cache: EngineCache, field: string): Int32Array {
  let values = cache.valueIds.get(field);
  if (values === undefined) {
    const seen = new Map<string, number>();
    values = new Int32Array(cache.size);
    for (let pos = 0; pos < cache.size; pos++) {
      const text = fieldText(cache, pos, field);
      let id = seen.get(text);
      if (id === undefined) {
        id = seen.size;
        seen.set(text, id);
      }
      values[pos] = id;
    }
    cache.valueIds.set(field, values);
  }
  return values;
}

function uniqueBy(list: PosList, cache: EngineCache, field: string): PosList {
  if (field === 'id') return list; // ids are distinct
  if (!LINK_FIELDS.has(field)) return list.slice(0, 1); // same text for all
  if (list.length < DIRECT_SORT_MAX) {
    const seen = new Set<string>();
    return list.filter((pos) => {
      const key = fieldText(cache, pos, field);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }
  const values = valueIds(cache, field);
  const stamp = cache.newMark();
  const out = list.filter((pos) => {
    const value = values[pos] ?? 0;
    if (cache.isMarked(value, stamp)) return false;
    cache.markOne(value, stamp);
    return true;
  });
  return out.length === list.length ? list : out;
}

/** Reads an argument like `parseInt(arg, 10)`; NaN when missing or non-numeric. */
export function readInteger(arg: string | undefined): number {
  return arg === undefined ? NaN : Number.parseInt(arg, 10);
}

/** Whether `*sort:F*` and `*unique:F*` read a value of field `field` (link fields and `id`). */
export function isFieldName(field: string): boolean {
  return field === 'id' || LINK_FIELDS.has(field);
}

/**
 * What a refiner's first argument is: a count (`limit`'s must not be negative to change anything), a field
 * name, or nothing it reads.
 */
export type RefinerArgument = 'count' | 'non-negative count' | 'field' | 'none';

/** What analysis needs to know of a refiner: what its argument is, and whether it draws random numbers. */
export interface RefinerTraits {
  readonly argument: RefinerArgument;
  readonly random: boolean;
}

/** One refiner: its traits, and what it does to a list. */
interface Refiner extends RefinerTraits {
  apply(
    list: PosList,
    arg: string | undefined,
    context: Pick<EvalContext, 'cache' | 'random'>,
  ): PosList;
}

/** The refiners by name (docs/expression-reference.md §9): the one table evaluation and analysis read. */
const REFINERS: Readonly<Record<string, Refiner>> = {
  sort: {
    argument: 'field',
    random: false,
    apply: (list, arg, { cache }) =>
      sortBy(list, cache, arg === undefined || arg === '' ? 'label' : arg),
  },
  reverse: {
    argument: 'none',
    random: false,
    apply: (list) => list.slice().reverse(),
  },
  limit: {
    argument: 'non-negative count',
    random: false,
    apply: (list, arg) => {
      const n = readInteger(arg);
      return n >= 0 ? list.slice(0, n) : list;
    },
  },
  skip: {
    argument: 'count',
    random: false,
    apply: (list, arg) => {
      const n = readInteger(arg);
      return n > 0 ? list.slice(n) : list;
    },
  },
  shuffle: {
    argument: 'none',
    random: true,
    apply: (list, _arg, { random }) => shuffle(list, random),
  },
  unique: {
    argument: 'field',
    random: false,
    apply: (list, arg, { cache }) =>
      uniqueBy(list, cache, arg === undefined || arg === '' ? 'url' : arg),
  },
};

/** The refiner named `name`, or `undefined` for a name the engine does not know. */
function refinerNamed(name: string): Refiner | undefined {
  return Object.hasOwn(REFINERS, name) ? REFINERS[name] : undefined;
}

/** The traits of the refiner named `name`; `undefined` when no refiner has that name. */
export function refinerTraits(name: string): RefinerTraits | undefined {
  return refinerNamed(name);
}

/** Applies one refiner to `list`; an unknown name changes nothing. */
export function applyRefiner(
  list: PosList,
  refiner: { readonly name: string; readonly args: readonly string[] },
  context: Pick<EvalContext, 'cache' | 'random'>,
): PosList {
  const known = refinerNamed(refiner.name);
  return known === undefined
    ? list
    : known.apply(list, refiner.args[0], context);
}
