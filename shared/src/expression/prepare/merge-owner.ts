/**
 * Resolving over the parts of a merge (docs/expression-reference.md §14) without building it: when the
 * last part holds every key that an earlier part holds, in every section, the last part decides each
 * link, macro and search pattern of the merge, and the merge's catalog is the last part's catalog. An
 * expression then selects the same links, in the same order, over the last part alone as over the merge
 * (a property test checks it against `mergePrepared`). Only resolution is the same: the merge has no
 * `protocols`, its `settings` are merged and its dropped names are those of every part, so diagnostics
 * still need the merge.
 */
import type { PreparedConfig } from '../types.js';
import { isIndexKey } from './merge-prepared.js';

/** Small sections are searched as they are; larger ones through a set, built once per call. */
const SCAN_LIMIT = 16;

/** Whether every key of `keys` is in `owned`. */
function allOwned(
  keys: readonly string[] | null,
  owned: readonly string[] | null,
): boolean {
  if (keys === null || keys.length === 0) return true;
  if (owned === null) return false;
  if (owned.length <= SCAN_LIMIT) return keys.every((k) => owned.includes(k));
  const set = new Set(owned);
  return keys.every((k) => set.has(k));
}

/**
 * Whether the earlier parts' link keys are all valid links of `last`, first appearing in `last`'s
 * catalog order: then the merge's catalog (first appearance, integer-like ids first) is `last`'s.
 */
function catalogOwned(
  earlier: readonly PreparedConfig[],
  last: PreparedConfig,
): boolean {
  const { ids, position } = last;
  // Integer-like ids lead every catalog in ascending order: the same set gives the same order.
  let next = 0;
  while (next < ids.length && isIndexKey(ids[next] as string)) next++;
  for (const part of earlier) {
    for (const key of part.source?.linkKeys ?? []) {
      const pos = position.get(key);
      // A key the last part lacks, or holds but dropped: another part may decide it.
      if (pos === undefined) return false;
      if (pos < next || isIndexKey(key)) continue;
      // Keys seen so far are exactly the positions before `next`: a new one must come next.
      if (pos !== next) return false;
      next++;
    }
  }
  return true;
}

/**
 * The part that decides every link, macro and search pattern of the merge of `parts`, if there is one:
 * resolving an expression over it gives the merge's answer. `undefined` when the merge must be built
 * (a part without its stored keys, an earlier key the last part lacks, or a different order).
 */
export function decidingPart(
  parts: readonly PreparedConfig[],
): PreparedConfig | undefined {
  const last = parts[parts.length - 1];
  const source = last?.source;
  if (last === undefined || source === undefined) return undefined;
  const earlier = parts.slice(0, -1);
  for (const part of earlier) {
    const keys = part.source;
    if (keys === undefined) return undefined;
    if (!allOwned(keys.macroKeys, source.macroKeys)) return undefined;
    if (!allOwned(keys.patternKeys, source.patternKeys)) return undefined;
  }
  return catalogOwned(earlier, last) ? last : undefined;
}
