/**
 * The set operators of §4. Operands never hold duplicates; results keep the left operand's order (OR
 * appends the new members of the right one).
 */
import { TokenKind } from './token-kind.js';
import type { OperatorKind } from './token-kind.js';

/** An ordered list of distinct ids. */
export type IdList = readonly string[];

/** Applies `op` to `left` and `right`. */
export function applyOperator(
  op: OperatorKind,
  left: IdList,
  right: IdList,
): IdList {
  switch (op) {
    case TokenKind.PLUS:
      return intersect(left, right);
    case TokenKind.PIPE:
      return union(left, right);
    case TokenKind.MINUS:
      return without(left, right);
  }
}

/** The members of `left` that are in `right`, in `left`'s order. */
function intersect(left: IdList, right: IdList): IdList {
  if (left.length === 0 || right.length === 0) return [];
  const keep = new Set(right);
  return left.filter((id) => keep.has(id));
}

/** `left`, then the members of `right` not in `left`. */
function union(left: IdList, right: IdList): IdList {
  if (right.length === 0) return left;
  if (left.length === 0) return right;
  const seen = new Set(left);
  const out = left.slice();
  for (const id of right) if (!seen.has(id)) out.push(id);
  return out;
}

/** The members of `left` not in `right`, in `left`'s order. */
function without(left: IdList, right: IdList): IdList {
  if (left.length === 0 || right.length === 0) return left;
  const drop = new Set(right);
  return left.filter((id) => !drop.has(id));
}
