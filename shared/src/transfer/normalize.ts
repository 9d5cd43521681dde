/**
 * How imported names become names the expression language can use (docs/expression-reference.md §2, §5,
 * §13): a tag `.name` and an id are a run of word characters (ASCII letters, digits, `_`), so everything
 * else is folded or replaced here, once, for tags and ids alike.
 */

/** The tag rule, as the import report states it. */
export const TAG_RULE =
  'tags are lower-cased, accents are removed, every run of other characters than a-z, 0-9 and _ becomes one _, and _ at either end is dropped (so ".web_dev" selects "Web Dev"); a tag left empty is dropped';

/** Names that preparation removes (docs/expression-reference.md §13): never given as an id. */
const BLOCKED_IDS = new Set(['__proto__', 'constructor', 'prototype']);

/** The longest id made from a label. */
const ID_MAX_LENGTH = 48;

/** Folds `text` into word characters: lower case, accents off, other runs to `_`, no `_` at the ends. */
export function toWordName(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/** A tag by {@link TAG_RULE}; `''` when nothing is left. */
export function normalizeTag(tag: string): string {
  return toWordName(tag);
}

/** Whether an id can be named by an expression and survives preparation as it is. */
export function isUsableId(id: string): boolean {
  return /^\w+$/.test(id) && !BLOCKED_IDS.has(id);
}

/** The readable base of an id made from a label (or a URL): word characters, never only digits. */
export function idBase(text: string): string {
  const base = toWordName(text).slice(0, ID_MAX_LENGTH).replace(/_+$/, '');
  if (base === '') return 'link';
  // Integer-like ids would move to the front of the catalog (§7); a letter keeps them in file order.
  return /^\d+$/.test(base) || BLOCKED_IDS.has(base) ? `link_${base}` : base;
}

/** The first of `base`, `base_2`, `base_3`, … that `taken` does not hold; the result is added to `taken`. */
export function uniqueId(base: string, taken: Set<string>): string {
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}_${n}`;
  taken.add(id);
  return id;
}
