/**
 * Evaluation (docs/expression-reference.md §4 to §10): the meaning the one parser (grammar.ts) gives each
 * rule when it computes link lists, as catalog positions. The tolerance rules live in the parser.
 */
import { evaluateAtom } from './atoms.js';
import type { PosList } from '../engine-cache.js';
import type { EvalContext } from './eval-context.js';
import { parseTokens } from '../syntax/grammar.js';
import type { Semantics } from '../syntax/grammar.js';
import type { GrammarObserver } from '../syntax/grammar-observer.js';
import { applyRefiner } from './refiners.js';
import { applyOperator, concatDistinct } from './set-ops.js';
import type { Token } from '../syntax/token-kind.js';

/** The values of evaluation: link lists computed against `context`. */
export function evaluation(context: EvalContext): Semantics<PosList> {
  return {
    empty: [],
    atom: (token, searchAllowed) => evaluateAtom(token, context, searchAllowed),
    combine: (op, left, right) =>
      applyOperator(context.cache, op, { left, right }),
    refine: (value, token) => applyRefiner(value, token, context),
    // Segments are concatenated, first occurrences kept (P9, P10).
    query: (segments) =>
      concatDistinct(
        context.cache,
        segments.filter((segment) => segment.length > 0),
      ),
  };
}

/** Parses and evaluates one token list against one prepared config, telling `observer` what it reaches. */
export class Evaluator {
  readonly #tokens: readonly Token[];
  readonly #context: EvalContext;
  readonly #observer: GrammarObserver | undefined;
  #consumed = 0;

  constructor(
    tokens: readonly Token[],
    context: EvalContext,
    observer?: GrammarObserver,
  ) {
    this.#tokens = tokens;
    this.#context = context;
    this.#observer = observer;
  }

  /** The selected catalog positions, de-duplicated keeping first occurrences (P9, P10). */
  parseQuery(): PosList {
    const parsed = parseTokens(
      this.#tokens,
      evaluation(this.#context),
      this.#observer,
    );
    this.#consumed = parsed.consumed;
    return parsed.value;
  }

  /** How many tokens parsing consumed: all of them, unless P6 stopped it early. Read-only, for checks. */
  get consumed(): number {
    return this.#consumed;
  }
}
