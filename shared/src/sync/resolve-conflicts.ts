/**
 * Settling the conflicts of a three-way merge: each resolution names a conflict's path and takes the
 * local, remote or base value there, or gives a value of its own.
 */
import type {
  ConflictResolution,
  MergeConflict,
  MergePath,
} from '../schemas/merge.js';
import { isPlainObject, setOwn } from './own-keys.js';
import type { JsonObject } from './own-keys.js';
import type { MergeResult } from './three-way-merge.js';

/** Whether two paths are the same. */
export function samePath(a: MergePath, b: MergePath): boolean {
  return a.length === b.length && a.every((step, i) => step === b[i]);
}

/** The value a resolution sets at its conflict's path (`undefined`: removed). */
function chosenValue(
  conflict: MergeConflict,
  resolution: ConflictResolution,
): unknown {
  if ('value' in resolution) return resolution.value;
  return conflict[resolution.take];
}

/**
 * The merged config with every conflict settled: each conflict takes what its resolution says, and a
 * conflict without a resolution keeps the local value (as the merge left it). A resolution for a path
 * that is not a conflict is refused (`Error`), so a stale answer cannot change something else.
 */
export function resolveConflicts<C extends JsonObject>(
  result: MergeResult<C>,
  resolutions: readonly ConflictResolution[],
): C | null {
  let config: unknown = result.merged ?? undefined;
  for (const resolution of resolutions) {
    const conflict = result.conflicts.find((c) =>
      samePath(c.path, resolution.path),
    );
    if (conflict === undefined) {
      throw new Error(
        `no conflict at ${JSON.stringify(resolution.path)} to resolve`,
      );
    }
    config = setAt(config, resolution.path, chosenValue(conflict, resolution));
  }
  return (config ?? null) as C | null;
}

/** `root` with the value at `path` replaced (`undefined`: removed); objects on the way are copied. */
export function setAt(root: unknown, path: MergePath, value: unknown): unknown {
  const [key, ...rest] = path;
  if (key === undefined) return value;
  const copy: JsonObject = {};
  if (isPlainObject(root)) {
    for (const k of Object.keys(root)) setOwn(copy, k, root[k]);
  }
  const inner = setAt(
    Object.hasOwn(copy, key) ? copy[key] : undefined,
    rest,
    value,
  );
  if (inner === undefined) delete copy[key];
  else setOwn(copy, key, inner);
  return copy;
}

/** The value at `path` (`undefined` when something on the way is missing). */
export function valueAt(root: unknown, path: MergePath): unknown {
  let value = root;
  for (const key of path) {
    if (!isPlainObject(value) || !Object.hasOwn(value, key)) return undefined;
    value = value[key];
  }
  return value;
}
