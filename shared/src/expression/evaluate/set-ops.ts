/**
 * The set operators (docs/expression-reference.md §4) over catalog positions. Operands never hold duplicates;
 * results keep the left operand's order (OR appends the new members of the right one). Membership uses the
 * cache's stamped marker array, so each operation is linear in its operands, and an operand is returned as is
 * (no copy) whenever the result equals it.
 */
import type { EngineCache, PosList } from '../engine-cache.js';
import { TokenKind } from '../syntax/token-kind.js';
import type { OperatorKind } from '../syntax/token-kind.js';

/** The operands of one operation. */
export interface Operands {
  readonly left: PosList;
  readonly right: PosList;
}

/** Applies `op` to the operands. */
export function applyOperator(
  cache: EngineCache,
  op: OperatorKind,
  { left, right }: Operands,
): PosList {
  switch (op) {
    case TokenKind.PLUS:
      if (left === right) return left;
      if (left.length === 0 || right.length === 0) return [];
      return keep(cache, { left, right }, true);
    case TokenKind.PIPE:
      if (left === right || right.length === 0) return left;
      if (left.length === 0) return right;
      return union(cache, left, right);
    case TokenKind.MINUS:
      if (left === right) return [];
      if (left.length === 0 || right.length === 0) return left;
      return keep(cache, { left, right }, false);
  }
}

/** The members of `left` that are (or are not) in `right`, in `left`'s order. */
function keep(
  cache: EngineCache,
  { left, right }: Operands,
  inRight: boolean,
): PosList {
  const stamp = cache.markList(right);
  const out = left.filter((pos) => cache.isMarked(pos, stamp) === inRight);
  return out.length === left.length ? left : out;
}

/** `left`, then the members of `right` not in `left`. */
function union(cache: EngineCache, left: PosList, right: PosList): PosList {
  const stamp = cache.markList(left);
  let out: number[] | undefined;
  for (const pos of right) {
    if (!cache.isMarked(pos, stamp)) (out ??= left.slice()).push(pos);
  }
  return out ?? left;
}

/** Concatenates lists, keeping each position's first occurrence (P9, P10). */
export function concatDistinct(
  cache: EngineCache,
  parts: readonly PosList[],
): PosList {
  if (parts.length <= 1) return parts[0] ?? [];
  const stamp = cache.newMark();
  const out: number[] = [];
  for (const part of parts) {
    for (const pos of part) {
      if (!cache.isMarked(pos, stamp)) {
        cache.markOne(pos, stamp);
        out.push(pos);
      }
    }
  }
  return out;
}
