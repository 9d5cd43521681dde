/**
 * Atoms (docs/expression-reference.md §5): item ids, tags, DOM placeholders; search patterns and protocols
 * (docs/expression-reference.md §8, §10) delegate to their modules. Values are catalog positions.
 */
import type { PosList } from '../engine-cache.js';
import { protocolAtom } from '../protocols/dispatch.js';
import { searchAtom } from './search-patterns.js';
import { TokenKind } from '../syntax/token-kind.js';
import type { CallToken, NameToken, RegexToken } from '../syntax/token-kind.js';
import type { EvalContext } from './eval-context.js';

/** A token that is an atom. */
export type AtomToken = NameToken | RegexToken | CallToken;

/**
 * Evaluates one atom. `searchAllowed` is false for the 6th and later search atoms of an expression
 * (docs/expression-reference.md §8.1). Refiner tokens are not atoms and give `∅`.
 */
export function evaluateAtom(
  token: AtomToken,
  context: EvalContext,
  searchAllowed: boolean,
): PosList {
  switch (token.kind) {
    case TokenKind.ITEM_ID: {
      const pos = context.prepared.position.get(token.value);
      return pos === undefined ? [] : [pos];
    }
    case TokenKind.CLASS:
      return context.cache.tag(token.value);
    case TokenKind.DOM_REF:
      return [];
    case TokenKind.REGEX:
      return searchAllowed ? searchAtom(context, token) : [];
    case TokenKind.PROTOCOL:
      return protocolAtom(context, token);
    case TokenKind.REFINER:
      return [];
  }
}
