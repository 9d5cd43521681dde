/**
 * Which links are selected for a bulk action, as pure rules: a click toggles one link, a shift-click
 * selects the range from the last one clicked (in the order shown), "Select all N shown" takes every
 * link the filter found. The selection is a list of ids in the order they were taken.
 */

/** The selected ids and the one clicked last (the anchor of a shift-click range). */
export interface Selection {
  ids: string[];
  anchor: string | null;
}

/** Nothing selected. */
export const NO_SELECTION: Selection = { ids: [], anchor: null };

/** Toggles `id`; it becomes the anchor. */
export function toggleSelected(selection: Selection, id: string): Selection {
  const has = selection.ids.includes(id);
  return {
    ids: has
      ? selection.ids.filter((other) => other !== id)
      : [...selection.ids, id],
    anchor: id,
  };
}

/**
 * A shift-click on `id`: every link between the anchor and `id` in `order` (both included) takes the
 * state `id` takes (selected when it was not). Without an anchor in `order`, only `id` toggles.
 */
export function selectRange(
  selection: Selection,
  order: readonly string[],
  id: string,
): Selection {
  const from = selection.anchor === null ? -1 : order.indexOf(selection.anchor);
  const to = order.indexOf(id);
  if (from === -1 || to === -1) return toggleSelected(selection, id);
  const range = order.slice(Math.min(from, to), Math.max(from, to) + 1);
  const select = !selection.ids.includes(id);
  const chosen = new Set(selection.ids);
  for (const other of range) {
    if (select) chosen.add(other);
    else chosen.delete(other);
  }
  return { ids: [...chosen], anchor: id };
}

/** Every id of `shown` selected (those selected before stay). */
export function selectAll(
  selection: Selection,
  shown: readonly string[],
): Selection {
  return {
    ids: [...new Set([...selection.ids, ...shown])],
    anchor: selection.anchor,
  };
}

/** The selection without ids the config no longer has (after a delete or a move). */
export function keepPresent(
  selection: Selection,
  links: Readonly<Record<string, unknown>>,
): Selection {
  const ids = selection.ids.filter((id) => Object.hasOwn(links, id));
  return ids.length === selection.ids.length
    ? selection
    : {
        ids,
        anchor:
          selection.anchor !== null && Object.hasOwn(links, selection.anchor)
            ? selection.anchor
            : null,
      };
}
