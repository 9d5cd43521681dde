/**
 * The one parser of the expression grammar (docs/expression-reference.md §4): recursive descent with one
 * function per rule, never failing. The tolerance rules P1–P10 and the limits (depth, refiners per segment,
 * search atoms per expression) are applied here and nowhere else. What a rule means is not decided here: the
 * parser asks its {@link Semantics} for values (evaluation computes link lists, analysis computes nothing)
 * and tells an optional {@link GrammarObserver} what it reached (dependencies, diagnostics).
 */
import type { AtomToken } from '../evaluate/atoms.js';
import type { GrammarObserver } from './grammar-observer.js';
import { MAX_REFINERS } from '../evaluate/refiners.js';
import { MAX_SEARCH_ATOMS } from '../evaluate/search-patterns.js';
import { TokenKind, isOperator } from './token-kind.js';
import type { CallToken, OperatorKind, Token } from './token-kind.js';

/**
 * Deepest parenthesis nesting (P8); entering level 33 abandons the rest of the expression.
 */
export const MAX_DEPTH = 32;

/** What the values of the grammar's rules are: the parser combines them, never looks inside. */
export interface Semantics<V> {
  /** The value of an empty slot (P2) and of a group beyond the depth limit (P8). */
  readonly empty: V;
  /** An atom's value; `searchAllowed` is false for the search atoms after the limit. */
  atom(token: AtomToken, searchAllowed: boolean): V;
  /** `left op right` (P1). */
  combine(op: OperatorKind, left: V, right: V): V;
  /** One refiner applied to a segment's value (only the first ten per segment). */
  refine(value: V, token: CallToken): V;
  /** The query's value from its segments' values, in order (P9, P10). */
  query(segments: readonly V[]): V;
}

/** A term's value and whether it consumed any token (P2, P3). */
interface Term<V> {
  readonly value: V;
  readonly consumed: boolean;
}

/** What one parse gives: the query's value and how many tokens it consumed (fewer than all after P6). */
export interface Parsed<V> {
  readonly value: V;
  readonly consumed: number;
}

/** One parse of one token list. */
class Parser<V> {
  readonly #tokens: readonly Token[];
  readonly #semantics: Semantics<V>;
  readonly #observer: GrammarObserver | undefined;
  #pos = 0;
  #depth = 0;
  #searchAtoms = 0;

  constructor(
    tokens: readonly Token[],
    semantics: Semantics<V>,
    observer: GrammarObserver | undefined,
  ) {
    this.#tokens = tokens;
    this.#semantics = semantics;
    this.#observer = observer;
  }

  /** query := segment { "," segment }; anything but a comma after a top-level segment stops it (P6). */
  query(): Parsed<V> {
    const segments: V[] = [];
    for (;;) {
      segments.push(this.#segment());
      if (this.#peek()?.kind !== TokenKind.COMMA) break;
      this.#pos++;
    }
    if (this.#pos < this.#tokens.length) this.#observer?.stop?.(this.#pos);
    return { value: this.#semantics.query(segments), consumed: this.#pos };
  }

  /** segment := term { operator term } { refiner } */
  #segment(): V {
    const first = this.#term();
    let value = first.value;
    let leading = !first.consumed;
    for (let op = this.#peek(); isOperator(op); op = this.#peek()) {
      const at = this.#pos;
      this.#pos++;
      if (this.#pos >= this.#tokens.length) {
        this.#observer?.trailingOperator?.(at); // P4: a final operator is ignored.
        break;
      }
      const rightAt = this.#pos;
      const right = this.#term(); // P2: an empty slot is the empty value.
      this.#observer?.operand?.({
        at,
        rightAt,
        consumed: right.consumed,
        leading,
      });
      value = leading
        ? right.value
        : this.#semantics.combine(op.kind, value, right.value); // P1, P3
      leading = false;
    }
    return this.#refiners(value, !leading); // P5
  }

  /** term := "(" segment ")" | atom — or an empty slot that consumes nothing (P2). */
  #term(): Term<V> {
    const token = this.#peek();
    if (token === undefined) return this.#emptyTerm();
    switch (token.kind) {
      case TokenKind.LPAREN:
        return this.#group();
      case TokenKind.ITEM_ID:
      case TokenKind.CLASS:
      case TokenKind.DOM_REF:
      case TokenKind.REGEX:
      case TokenKind.PROTOCOL:
        return { value: this.#atom(token), consumed: true };
      case TokenKind.REFINER:
      case TokenKind.PLUS:
      case TokenKind.PIPE:
      case TokenKind.MINUS:
      case TokenKind.COMMA:
      case TokenKind.RPAREN:
        return this.#emptyTerm();
    }
  }

  /** "(" segment ")": the `)` is consumed only when it is next (P7); level 33 abandons the rest (P8). */
  #group(): Term<V> {
    const open = this.#pos;
    this.#pos++;
    if (this.#depth >= MAX_DEPTH) {
      this.#observer?.depthLimit?.(open);
      this.#pos = this.#tokens.length;
      return { value: this.#semantics.empty, consumed: true };
    }
    this.#depth++;
    const inner = this.#pos;
    const value = this.#segment();
    this.#observer?.groupEnd?.({
      open,
      at: this.#pos,
      empty: this.#pos === inner,
    });
    if (this.#peek()?.kind === TokenKind.RPAREN) this.#pos++;
    this.#depth--;
    return { value, consumed: true };
  }

  /** { refiner }: at most ten applied per segment, the rest consumed and ignored (§9). */
  #refiners(value: V, hasValue: boolean): V {
    let result = value;
    let count = 0;
    for (let token = this.#peek(); token?.kind === TokenKind.REFINER;) {
      const at = this.#pos;
      this.#pos++;
      if (count < MAX_REFINERS) {
        this.#observer?.refiner?.(token, at, count === 0 && !hasValue);
        result = this.#semantics.refine(result, token);
      } else {
        this.#observer?.ignoredRefiner?.(token, at);
      }
      count++;
      token = this.#peek();
    }
    return result;
  }

  /** An atom, counting search atoms against their limit (§8.1). */
  #atom(token: AtomToken): V {
    const at = this.#pos;
    if (token.kind === TokenKind.REGEX) this.#searchAtoms++;
    const searchAllowed = this.#searchAtoms <= MAX_SEARCH_ATOMS;
    this.#observer?.atom?.(token, at, searchAllowed);
    this.#pos++;
    return this.#semantics.atom(token, searchAllowed);
  }

  #emptyTerm(): Term<V> {
    return { value: this.#semantics.empty, consumed: false };
  }

  #peek(): Token | undefined {
    return this.#tokens[this.#pos];
  }
}

/** Parses `tokens` once, asking `semantics` for values and telling `observer` what it reaches. */
export function parseTokens<V>(
  tokens: readonly Token[],
  semantics: Semantics<V>,
  observer?: GrammarObserver,
): Parsed<V> {
  return new Parser(tokens, semantics, observer).query();
}
