/**
 * The three-way merge of configs (issue 20): two versions edited from one base are combined per link id
 * and per field of a link, and per key of `macros`, `settings` and `searchPatterns` (and per member of
 * the config's other top-level keys). A change made on one side only is taken, a change made alike on
 * both sides is taken once, and different changes to the same thing — or a change on one side and a
 * removal on the other — are conflicts, listed with their path and the three values.
 */
import type { MergeConflict, MergePath } from '../schemas/merge.js';
import { sameValue } from '../util/same-value.js';
import { isPlainObject, keepsOrder, ownValue, setOwn } from './own-keys.js';
import type { JsonObject } from './own-keys.js';

/** What {@link threeWayMerge} answers. */
export interface MergeResult<C> {
  /**
   * The merge (`null`: the config is removed). Where the sides conflict it holds the local value, so
   * nothing is decided until the conflicts are resolved (`resolveConflicts`).
   */
  readonly merged: C | null;
  /** Where both sides changed the same thing differently; empty for a clean merge. */
  readonly conflicts: readonly MergeConflict[];
}

/** The grain of a merge below a path: per key of an object, and how each of its values is merged. */
type Grain = 'value' | 'keys' | 'links' | 'config';

const ABSENT = undefined;

/**
 * Merges `local` and `remote`, both edited from `base` (`null`: the config did not exist, or was
 * removed on that side). See the module comment for the rules.
 */
export function threeWayMerge<C extends JsonObject>(
  base: C | null,
  local: C | null,
  remote: C | null,
): MergeResult<C> {
  const conflicts: MergeConflict[] = [];
  const merged = mergeAt(
    { path: [], grain: 'config', conflicts },
    { base: base ?? ABSENT, local: local ?? ABSENT, remote: remote ?? ABSENT },
  );
  return { merged: (merged ?? null) as C | null, conflicts };
}

/** The grain of the members of an object merged at `grain`. */
function innerGrain(grain: Grain, key: string): Grain {
  // `macros`, `settings`, `searchPatterns` and any other top-level object: per key.
  if (grain === 'config') return key === 'allLinks' ? 'links' : 'keys';
  if (grain === 'links') return 'keys';
  return 'value';
}

/** Where a merge step is: its path, its grain, and the list conflicts are added to. */
interface Place {
  readonly path: MergePath;
  readonly grain: Grain;
  readonly conflicts: MergeConflict[];
}

/** The three versions of one thing (absent: `undefined`). */
interface Sides<T = unknown> {
  readonly base: T;
  readonly local: T;
  readonly remote: T;
}

/**
 * Merges one thing. When both sides changed it differently and both hold objects, it is merged member
 * by member at the finer grain; otherwise that is a conflict at its path.
 */
function mergeAt(place: Place, sides: Sides): unknown {
  const { path, grain, conflicts } = place;
  const { base, local, remote } = sides;
  // The order of `allLinks` is the order of a menu: a side that only moved links changed it too.
  const moved = (side: unknown) => linksMoved(grain, base, side);
  if (sameValue(local, remote))
    return moved(remote) && !moved(local) ? remote : local;
  if (sameValue(base, local) && !moved(local)) return remote;
  if (sameValue(base, remote) && !moved(remote)) return local;
  const divisible =
    grain !== 'value' &&
    isPlainObject(local) &&
    isPlainObject(remote) &&
    (base === ABSENT || isPlainObject(base));
  if (!divisible) {
    conflicts.push({ path, base, local, remote });
    return local;
  }
  return mergeMembers(place, {
    base,
    local,
    remote,
    remoteOrder: moved(remote) && !moved(local),
  });
}

/** Whether `side` holds the links (the config's `allLinks`, or `allLinks` itself) in another order than `base`. */
function linksMoved(grain: Grain, base: unknown, side: unknown): boolean {
  if (grain === 'config')
    return linksMoved(
      'links',
      ownValue(base, 'allLinks'),
      ownValue(side, 'allLinks'),
    );
  return (
    grain === 'links' &&
    isPlainObject(base) &&
    isPlainObject(side) &&
    !keepsOrder(base, side, { addedLast: false })
  );
}

function mergeMembers(
  { path, grain, conflicts }: Place,
  {
    base,
    local,
    remote,
    remoteOrder,
  }: {
    readonly base: JsonObject | undefined;
    readonly local: JsonObject;
    readonly remote: JsonObject;
    /** Only the remote side moved members (links): its order leads. */
    readonly remoteOrder: boolean;
  },
): JsonObject {
  const result: JsonObject = {};
  // Local order first (the remote's when only it moved links), then what only the other side has.
  const [first, second] = remoteOrder ? [remote, local] : [local, remote];
  const keys = [
    ...Object.keys(first),
    ...Object.keys(second).filter((key) => !Object.hasOwn(first, key)),
    ...Object.keys(base ?? {}).filter(
      (key) => !Object.hasOwn(local, key) && !Object.hasOwn(remote, key),
    ),
  ];
  for (const key of keys) {
    const value = mergeAt(
      { path: [...path, key], grain: innerGrain(grain, key), conflicts },
      {
        base: ownValue(base, key),
        local: ownValue(local, key),
        remote: ownValue(remote, key),
      },
    );
    if (value !== ABSENT) setOwn(result, key, value);
  }
  return result;
}

/**
 * The paths, at the grain of the merge, where `changed` differs from `base` (`[]`: the whole config was
 * created or removed): what one side changed, as a merge sees it.
 */
export function changedPaths<C extends JsonObject>(
  base: C | null,
  changed: C | null,
): MergePath[] {
  const paths: MergePath[] = [];
  const walk = (
    { path, grain }: Pick<Place, 'path' | 'grain'>,
    from: unknown,
    to: unknown,
  ) => {
    if (sameValue(from, to)) return;
    const divisible =
      grain !== 'value' &&
      isPlainObject(to) &&
      (from === ABSENT || isPlainObject(from));
    if (!divisible || (grain === 'config' && from === ABSENT)) {
      paths.push(path);
      return;
    }
    const keys = new Set([...Object.keys(from ?? {}), ...Object.keys(to)]);
    for (const key of keys) {
      walk(
        { path: [...path, key], grain: innerGrain(grain, key) },
        ownValue(from, key),
        ownValue(to, key),
      );
    }
  };
  walk({ path: [], grain: 'config' }, base ?? ABSENT, changed ?? ABSENT);
  return paths;
}
