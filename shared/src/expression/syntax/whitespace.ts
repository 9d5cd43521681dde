/**
 * Character classes of the tokenizer (docs/expression-reference.md §2), shared by macro expansion, URL
 * sanitization and the option parsers. Everything works on UTF-16 code units.
 */

/** The whitespace set (docs/expression-reference.md §2), as UTF-16 code units. */
const WHITESPACE = new Set<number>([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002,
  0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028,
  0x2029, 0x202f, 0x205f, 0x3000, 0xfeff,
]);

/** Below this code unit, {@link WHITESPACE} is read from a flat table (the common, ASCII case). */
const TABLE_END = 0x100;
const LOW = new Uint8Array(TABLE_END);
for (const code of WHITESPACE) if (code < TABLE_END) LOW[code] = 1;

/** Whether a code unit is whitespace (docs/expression-reference.md §2). */
export function isWhitespace(code: number): boolean {
  return code < TABLE_END ? LOW[code] === 1 : WHITESPACE.has(code);
}

/**
 * Whether a code unit is an ASCII letter, an ASCII digit or `_` (a word character,
 * docs/expression-reference.md §2).
 */
export function isWordChar(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x61 && code <= 0x7a) ||
    code === 0x5f
  );
}

/** Whether a code unit is an ASCII digit. */
export function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

/** Removes whitespace (docs/expression-reference.md §2) from both ends of `text`. */
export function trimWhitespace(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isWhitespace(text.charCodeAt(start))) start++;
  while (end > start && isWhitespace(text.charCodeAt(end - 1))) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

/** The end of the run of word characters that starts at `from`. */
export function wordEnd(text: string, from: number): number {
  let end = from;
  while (end < text.length && isWordChar(text.charCodeAt(end))) end++;
  return end;
}
