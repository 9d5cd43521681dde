/**
 * Macro expansion that remembers where every character came from (for diagnostics; docs/expressions.md §6).
 * It performs the same rounds as `expandMacros` and gives the same text (a property test holds the two
 * together), and also a map from offsets in the expanded text back to the original expression: text that came
 * from a macro maps to the `@name` reference in the original that brought it in, however deeply it was
 * nested.
 */
import { MAX_TOKENS, tokenize, tokenizeWithSpans } from '../syntax/lexer.js';
import { MAX_EXPANDED_LENGTH, MAX_MACRO_ROUNDS } from './macros.js';
import { wordEnd } from '../syntax/whitespace.js';

/** A stretch of the expanded text and its origin in the original expression. */
interface Piece {
  /** Start in the expanded text. */
  readonly at: number;
  readonly length: number;
  /** Start in the original (for copied text: the character itself; for macro text: the `@name`). */
  readonly source: number;
  /** End in the original, exclusive. */
  readonly sourceEnd: number;
  /** The macros this text came through, outermost first; `undefined` for text copied from the original. */
  readonly macros: readonly string[] | undefined;
}

/** A place in the original expression, and the macros it came through (if any). */
export interface SourceSpan {
  readonly start: number;
  readonly end: number;
  /** Outermost first; empty for text written in the expression itself. */
  readonly macros: readonly string[];
}

/** A `@name` reference that expansion removed because no macro has that name (or the name is empty). */
export interface UnknownReference extends SourceSpan {
  readonly name: string;
}

/** The outcome of {@link expandWithSourceMap}. */
export interface MappedExpansion {
  /** The expanded text, or `null` when expansion went over a limit (the expression is then `∅`). */
  readonly text: string | null;
  /** Maps offsets of the expanded text (or of the text where a limit was crossed) to the original. */
  readonly map: SourceMap;
  readonly unknown: readonly UnknownReference[];
  /** Which limit was crossed and where, when `text` is `null`. */
  readonly overflow:
    | { readonly limit: 'length' | 'tokens'; readonly at: SourceSpan }
    | undefined;
}

const NO_MACROS: readonly string[] = [];

/** Offsets of an expanded text mapped back to the original expression. */
export class SourceMap {
  readonly #pieces: readonly Piece[];

  constructor(pieces: readonly Piece[]) {
    this.#pieces = pieces;
  }

  /** A map for text copied unchanged from the original, starting at `offset` there. */
  static identity(length: number, offset: number): SourceMap {
    return new SourceMap([
      {
        at: 0,
        length,
        source: offset,
        sourceEnd: offset + length,
        macros: undefined,
      },
    ]);
  }

  /** Where the expanded text `[start, end)` came from. */
  span(start: number, end: number): SourceSpan {
    const first = this.#locate(start);
    const last = end > start ? this.#locate(end - 1) : first;
    if (first === undefined || last === undefined) {
      return { start: 0, end: 0, macros: NO_MACROS };
    }
    return {
      start:
        first.macros === undefined
          ? first.source + (start - first.at)
          : first.source,
      end:
        last.macros === undefined
          ? last.source + (Math.max(end, start + 1) - last.at)
          : last.sourceEnd,
      macros: first.macros ?? last.macros ?? NO_MACROS,
    };
  }

  /** The piece holding `offset` (the last one for offsets at or past the end). */
  #locate(offset: number): Piece | undefined {
    return this.#pieces[this.#indexOf(offset)];
  }

  /** The index of the piece holding `offset` (binary search; pieces are in text order). */
  #indexOf(offset: number): number {
    const pieces = this.#pieces;
    let low = 0;
    let high = pieces.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((pieces[mid]?.at ?? 0) <= offset) low = mid;
      else high = mid - 1;
    }
    return low;
  }

  /** The pieces covering `[from, to)` of the text, cut to that range and moved to start at `at`. */
  slice(from: number, to: number, at: number): Piece[] {
    const out: Piece[] = [];
    if (from >= to) return out;
    for (let i = this.#indexOf(from); i < this.#pieces.length; i++) {
      const piece = this.#pieces[i];
      if (piece === undefined || piece.at >= to) break;
      const start = Math.max(from, piece.at);
      const end = Math.min(to, piece.at + piece.length);
      if (start >= end) continue;
      const shift = start - piece.at;
      out.push({
        at: at + (start - from),
        length: end - start,
        source:
          piece.macros === undefined ? piece.source + shift : piece.source,
        sourceEnd:
          piece.macros === undefined
            ? piece.source + shift + (end - start)
            : piece.sourceEnd,
        macros: piece.macros,
      });
    }
    return out;
  }
}

/** The result of one round: new text and map, or the place where the length limit was crossed. */
type Round =
  | {
      readonly text: string;
      readonly map: SourceMap;
    }
  | { readonly text: null; readonly at: SourceSpan };

/**
 * One round over `text`: every `@name` replaced at once (inserted text is not rescanned), as
 * `expandMacros` does it, with the same length check at the same places.
 */
function expandRound(
  text: string,
  map: SourceMap,
  context: {
    readonly macros: ReadonlyMap<string, string>;
    readonly unknown: UnknownReference[];
  },
): Round {
  const parts: string[] = [];
  const pieces: Piece[] = [];
  let length = 0;
  const literal = (from: number, to: number): boolean => {
    if (length + (to - from) > MAX_EXPANDED_LENGTH) return false;
    pieces.push(...map.slice(from, to, length));
    parts.push(text.slice(from, to));
    length += to - from;
    return true;
  };
  let from = 0;
  for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', from)) {
    if (!literal(from, at)) return { text: null, at: map.span(from, at) };
    const end = wordEnd(text, at + 1);
    const name = text.slice(at + 1, end);
    const replacement = name === '' ? undefined : context.macros.get(name);
    const ref = map.span(at, end);
    if (replacement === undefined) {
      context.unknown.push({ ...ref, name });
    } else if (replacement !== '') {
      if (length + replacement.length > MAX_EXPANDED_LENGTH) {
        return { text: null, at: ref };
      }
      pieces.push({
        at: length,
        length: replacement.length,
        source: ref.start,
        sourceEnd: ref.end,
        macros: [...ref.macros, name],
      });
      parts.push(replacement);
      length += replacement.length;
    }
    from = end;
  }
  if (!literal(from, text.length)) {
    return { text: null, at: map.span(from, text.length) };
  }
  return { text: parts.join(''), map: new SourceMap(pieces) };
}

/**
 * Expands the macros of `text` (already trimmed; `offset` is where it starts in the original expression)
 * exactly as `expandMacros` does, keeping a map back to the original and the unknown references met on
 * the way. Text without `@` is returned as is with an identity map.
 */
export function expandWithSourceMap(
  text: string,
  macros: ReadonlyMap<string, string>,
  offset: number,
): MappedExpansion {
  let current = text;
  let map = SourceMap.identity(text.length, offset);
  const unknown: UnknownReference[] = [];
  let rounds = 0;
  while (rounds < MAX_MACRO_ROUNDS && current.includes('@')) {
    const next = expandRound(current, map, { macros, unknown });
    if (next.text === null) {
      return {
        text: null,
        map,
        unknown,
        overflow: { limit: 'length', at: next.at },
      };
    }
    if (next.text === current) break;
    if (tokenize(next.text, MAX_TOKENS) === null) {
      const at = tokenizeWithSpans(next.text, MAX_TOKENS).overflowAt ?? 0;
      return {
        text: null,
        map: next.map,
        unknown,
        overflow: { limit: 'tokens', at: next.map.span(at, at + 1) },
      };
    }
    current = next.text;
    map = next.map;
    rounds++;
  }
  return { text: current, map, unknown, overflow: undefined };
}
