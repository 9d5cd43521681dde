/**
 * The single-pass parser and evaluator (docs/expression-reference.md §4): recursive descent with one `parseX`
 * per rule, evaluating as it goes and never failing. The tolerance rules P1–P10 are marked where they apply.
 */
import { evaluateAtom } from './atoms.js';
import type { AtomToken } from './atoms.js';
import { MAX_REFINERS, applyRefiner } from './refiners.js';
import { MAX_SEARCH_ATOMS } from './search-patterns.js';
import type { PosList } from './engine-cache.js';
import { applyOperator, concatDistinct } from './set-ops.js';
import { TokenKind, isOperator } from './token-kind.js';
import type { Token } from './token-kind.js';
import type { EvalContext } from './eval-context.js';

/**
 * Deepest parenthesis nesting (docs/expression-reference.md §4 P8); entering level 33 abandons the rest of
 * the expression.
 */
export const MAX_DEPTH = 32;

/** A term's value and whether it consumed any token (P2, P3). */
interface Term {
  readonly ids: PosList;
  readonly consumed: boolean;
}

const EMPTY_TERM: Term = { ids: [], consumed: false };

/** Parses and evaluates one token list against one prepared config. */
export class Evaluator {
  readonly #tokens: readonly Token[];
  readonly #context: EvalContext;
  #pos = 0;
  #depth = 0;
  #searchAtoms = 0;

  constructor(tokens: readonly Token[], context: EvalContext) {
    this.#tokens = tokens;
    this.#context = context;
  }

  /**
   * query := segment { "," segment }
   *
   * Returns the concatenated segment results as catalog positions, de-duplicated keeping first
   * occurrences (P9, P10). Anything but a comma after a top-level segment stops the query (P6).
   */
  parseQuery(): PosList {
    const parts: PosList[] = [];
    for (;;) {
      const segment = this.#parseSegment();
      if (segment.length > 0) parts.push(segment);
      if (this.#peek()?.kind !== TokenKind.COMMA) break;
      this.#pos++;
    }
    return concatDistinct(this.#context.cache, parts);
  }

  /** segment := term { operator term } { refiner } */
  #parseSegment(): PosList {
    const first = this.#parseTerm();
    let value = first.ids;
    let leading = !first.consumed;
    for (let op = this.#peek(); isOperator(op); op = this.#peek()) {
      this.#pos++;
      if (this.#pos >= this.#tokens.length) break; // P4: a final operator is ignored.
      const right = this.#parseTerm().ids; // P2: an empty slot is ∅.
      value = leading
        ? right
        : applyOperator(this.#context.cache, op.kind, { left: value, right }); // P1, P3
      leading = false;
    }
    return this.#parseRefiners(value); // P5
  }

  /** term := "(" segment ")" | atom — or an empty slot that consumes nothing (P2). */
  #parseTerm(): Term {
    const token = this.#peek();
    if (token === undefined) return EMPTY_TERM;
    switch (token.kind) {
      case TokenKind.LPAREN:
        return this.#parseGroup();
      case TokenKind.ITEM_ID:
      case TokenKind.CLASS:
      case TokenKind.DOM_REF:
      case TokenKind.REGEX:
      case TokenKind.PROTOCOL:
        this.#pos++;
        return { ids: this.#evaluateAtom(token), consumed: true };
      case TokenKind.REFINER:
      case TokenKind.PLUS:
      case TokenKind.PIPE:
      case TokenKind.MINUS:
      case TokenKind.COMMA:
      case TokenKind.RPAREN:
        return EMPTY_TERM;
    }
  }

  /** "(" segment ")": the `)` is consumed only when it is next (P7); level 33 abandons the rest (P8). */
  #parseGroup(): Term {
    this.#pos++;
    if (this.#depth >= MAX_DEPTH) {
      this.#pos = this.#tokens.length;
      return { ids: [], consumed: true };
    }
    this.#depth++;
    const ids = this.#parseSegment();
    if (this.#peek()?.kind === TokenKind.RPAREN) this.#pos++;
    this.#depth--;
    return { ids, consumed: true };
  }

  /**
   * { refiner }: at most ten applied per segment, the rest consumed and ignored
   * (docs/expression-reference.md §9).
   */
  #parseRefiners(value: PosList): PosList {
    let result = value;
    let count = 0;
    for (let token = this.#peek(); token?.kind === TokenKind.REFINER;) {
      this.#pos++;
      if (count < MAX_REFINERS) {
        result = applyRefiner(result, token, this.#context);
      }
      count++;
      token = this.#peek();
    }
    return result;
  }

  #evaluateAtom(token: AtomToken): PosList {
    if (token.kind === TokenKind.REGEX) this.#searchAtoms++;
    return evaluateAtom(
      token,
      this.#context,
      this.#searchAtoms <= MAX_SEARCH_ATOMS,
    );
  }

  /** How many tokens parsing consumed: all of them, unless P6 stopped it early. Read-only, for checks. */
  get consumed(): number {
    return this.#pos;
  }

  #peek(): Token | undefined {
    return this.#tokens[this.#pos];
  }
}
