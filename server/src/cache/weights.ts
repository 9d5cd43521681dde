/** What strings keep alive in a cache, in bytes (V8 stores a string in 1 or 2 bytes per character). */

/** 1 when V8 can store every string of `text` in one byte per character (Latin-1), else 2. */
export function charWidth(text: string): 1 | 2 {
  // eslint-disable-next-line no-control-regex -- a range test, not a search for control characters
  return /[^\u0000-\u00ff]/.test(text) ? 2 : 1;
}

/** Bytes a string keeps alive (its characters; the header is negligible next to bodies). */
export function stringWeight(text: string): number {
  return text.length * charWidth(text) + 32;
}
