/**
 * The folding that turns any text into a name the expression language can use (docs/expression-reference.md
 * §2, §5): a tag `.name` and an id are a run of word characters (ASCII letters, digits, `_`). Tags
 * (`tags.ts`) and ids (`ids.ts`) are both made with it.
 */

/** Folds `text` into word characters: lower case, accents off, other runs to `_`, no `_` at the ends. */
export function toWordName(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '');
}
