/**
 * The order of a menu: the stored order of `allLinks` is the catalog order every expression answers in
 * (docs/expression-reference.md §7), so moving a link is moving its key. Integer-like ids (`3`, `20`) are
 * always listed first, smallest first, by JavaScript itself: they have no place of their own to move to,
 * and the other links move among themselves after them.
 */
import { isIndexKey } from '../expression/prepare/merge-prepared.js';
import { setOwn } from '../util/own-property.js';

/** Where a link moves: one place up or down, to the top or bottom, or to the place of another link. */
export type LinkMove =
  | 'up'
  | 'down'
  | 'top'
  | 'bottom'
  | { readonly to: string; readonly after?: boolean };

/** Whether link `id` can be moved (integer-like ids keep the place JavaScript gives them). */
export function isMovableId(id: string): boolean {
  return !isIndexKey(id);
}

/** The ids in their order after moving `id` by `move`; `ids` itself when nothing moves. */
export function movedOrder(
  ids: readonly string[],
  id: string,
  move: LinkMove,
): readonly string[] {
  const movable = ids.filter(isMovableId);
  const from = movable.indexOf(id);
  if (from === -1) return ids;
  const rest = movable.filter((other) => other !== id);
  let at: number;
  if (move === 'up') at = Math.max(0, from - 1);
  else if (move === 'down') at = Math.min(rest.length, from + 1);
  else if (move === 'top') at = 0;
  else if (move === 'bottom') at = rest.length;
  else {
    const target = rest.indexOf(move.to);
    if (target === -1) return ids;
    at = target + (move.after === true ? 1 : 0);
  }
  if (at === from) return ids;
  rest.splice(at, 0, id);
  return [...ids.filter((other) => !isMovableId(other)), ...rest];
}

/** `allLinks` with its keys in `order` (every key of `allLinks`, each once); a new object. */
export function withLinkOrder<L>(
  allLinks: Readonly<Record<string, L>>,
  order: readonly string[],
): Record<string, L> {
  const out: Record<string, L> = {};
  for (const id of order) {
    if (!Object.hasOwn(allLinks, id)) continue;
    setOwn(out, id, allLinks[id]);
  }
  return out;
}
