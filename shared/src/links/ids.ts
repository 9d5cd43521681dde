/**
 * The one rule for ids made from a label (or a URL): what the import gives a link without a usable id,
 * and what the page's link form proposes for a new link. An id is a run of word characters
 * ({@link toWordName}), never only digits, never a name that preparation removes.
 */
import { isBlockedKey } from '../util/own-property.js';
import { toWordName } from './word-name.js';

/** The longest id made from a label. */
const ID_MAX_LENGTH = 48;

/** The id given when a label leaves no word characters at all. */
export const FALLBACK_ID = 'link';

/** Whether an id can be named by an expression and survives preparation as it is. */
export function isUsableId(id: string): boolean {
  return /^\w+$/.test(id) && !isBlockedKey(id);
}

/** The readable base of an id made from a label (or a URL): word characters, never only digits. */
export function idBase(text: string): string {
  const base = toWordName(text).slice(0, ID_MAX_LENGTH).replace(/_+$/, '');
  if (base === '') return FALLBACK_ID;
  // Integer-like ids would move to the front of the catalog (§7); a letter keeps them in file order.
  return /^\d+$/.test(base) || isBlockedKey(base) ? `link_${base}` : base;
}

/** The first of `base`, `base_2`, `base_3`, … that `taken` does not hold; the result is added to `taken`. */
export function uniqueId(base: string, taken: Set<string>): string {
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}_${n}`;
  taken.add(id);
  return id;
}

/** The id for a new link labelled `label` (or, without a label, for its URL) among the ids `taken`. */
export function idForLabel(label: string, taken: Iterable<string>): string {
  return uniqueId(idBase(label), new Set(taken));
}
