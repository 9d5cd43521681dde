/**
 * Refiners `*name:arg*` (expression doc §9): sort, reverse, limit, skip, shuffle, unique. Unknown names
 * change nothing. Refiners never mutate their input list.
 */
import { compareText } from './collation.js';
import type { IdList } from './set-ops.js';
import type { PreparedLink } from './types.js';

/** Most refiners applied per segment (§9); further ones are consumed and ignored. */
export const MAX_REFINERS = 10;

/** What a refiner needs besides its list. */
export interface RefinerContext {
  readonly links: ReadonlyMap<string, PreparedLink>;
  readonly random: () => number;
}

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

/** The text of field `field` of link `id` (own fields only; `id` is the id). */
function fieldText(context: RefinerContext, id: string, field: string): string {
  if (field === 'id') return id;
  const link = context.links.get(id);
  if (link === undefined || !Object.hasOwn(link, field)) return '';
  return valueText((link as Record<string, unknown>)[field]);
}

/** Reads an argument like `parseInt(arg, 10)`; NaN when missing or non-numeric. */
function readInteger(arg: string | undefined): number {
  return arg === undefined ? NaN : Number.parseInt(arg, 10);
}

function sortBy(list: IdList, context: RefinerContext, field: string): IdList {
  const keyed = list.map((id) => ({ id, key: fieldText(context, id, field) }));
  keyed.sort((a, b) => compareText(a.key, b.key));
  return keyed.map((entry) => entry.id);
}

function shuffle(list: IdList, random: () => number): IdList {
  const out = list.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const r = random();
    const j = Math.min(i, Math.max(0, Math.floor(r * (i + 1)))) || 0;
    const held = out[i] as string;
    out[i] = out[j] as string;
    out[j] = held;
  }
  return out;
}

function uniqueBy(
  list: IdList,
  context: RefinerContext,
  field: string,
): IdList {
  const seen = new Set<string>();
  return list.filter((id) => {
    const key = fieldText(context, id, field);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Applies one refiner to `list`. */
export function applyRefiner(
  list: IdList,
  refiner: { readonly name: string; readonly args: readonly string[] },
  context: RefinerContext,
): IdList {
  const arg = refiner.args[0];
  switch (refiner.name) {
    case 'sort':
      return sortBy(
        list,
        context,
        arg === undefined || arg === '' ? 'label' : arg,
      );
    case 'reverse':
      return list.slice().reverse();
    case 'limit': {
      const n = readInteger(arg);
      return n >= 0 ? list.slice(0, n) : list;
    }
    case 'skip': {
      const n = readInteger(arg);
      return n > 0 ? list.slice(n) : list;
    }
    case 'shuffle':
      return shuffle(list, context.random);
    case 'unique':
      return uniqueBy(
        list,
        context,
        arg === undefined || arg === '' ? 'url' : arg,
      );
    default:
      return list;
  }
}
