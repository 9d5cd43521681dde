/**
 * Textual macro expansion (docs/expression-reference.md §3, D2): `@name` is replaced by the macro's
 * `linkItems`, verbatim, in rounds, before tokenizing.
 */
import { MAX_TOKENS, tokenize } from '../syntax/lexer.js';
import { wordEnd } from '../syntax/whitespace.js';

/** Most rounds that may change the text (docs/expression-reference.md §3). */
export const MAX_MACRO_ROUNDS = 10;

/** Longest expanded text, in UTF-16 code units (D2: 64 KiB). */
export const MAX_EXPANDED_LENGTH = 65_536;

/**
 * Expands every `@name` in `text`. Returns `null` when the expansion exceeds {@link MAX_EXPANDED_LENGTH}
 * code units or {@link MAX_TOKENS} tokens (the whole expression is then `∅`, D2). Text without `@` is
 * returned as is.
 */
export function expandMacros(
  text: string,
  macros: ReadonlyMap<string, string>,
): string | null {
  let current = text;
  let rounds = 0;
  while (rounds < MAX_MACRO_ROUNDS && current.includes('@')) {
    const next = expandRound(current, macros);
    if (next === null) return null;
    if (next === current) break;
    if (tokenize(next, MAX_TOKENS) === null) return null;
    current = next;
    rounds++;
  }
  return current;
}

/**
 * One round: all references of `text` are replaced at once; inserted text is not rescanned. Stops with
 * `null` as soon as the result would exceed the length limit.
 */
function expandRound(
  text: string,
  macros: ReadonlyMap<string, string>,
): string | null {
  const parts: string[] = [];
  let length = 0;
  const push = (part: string): boolean => {
    length += part.length;
    if (length > MAX_EXPANDED_LENGTH) return false;
    parts.push(part);
    return true;
  };
  let from = 0;
  for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', from)) {
    if (!push(text.slice(from, at))) return null;
    const end = wordEnd(text, at + 1);
    const name = text.slice(at + 1, end);
    const replacement = name === '' ? undefined : macros.get(name);
    if (replacement !== undefined && !push(replacement)) return null;
    from = end;
  }
  if (!push(text.slice(from))) return null;
  return parts.join('');
}
