/**
 * JSON Merge Patch (RFC 7396): applying a patch, and the patch that turns one document into another.
 * Pure; used by the server's `PATCH /configs/:name` and by clients that send the difference of an edit.
 */
import { sameValue } from '../util/same-value.js';
import { runAtOnce } from '../util/slices.js';
import type { Sliced } from '../util/slices.js';
import { isPlainObject, keepsOrder, setOwn } from './own-keys.js';
import type { JsonObject } from './own-keys.js';

/**
 * Applies `patch` to `target` as RFC 7396 says: a patch that is not an object replaces the target; an
 * object patch turns a non-object target into `{}`, removes the members it sets to `null` and patches
 * the others in turn (arrays are replaced whole). The target is not changed: the answer shares its
 * unchanged members. Members keep their place; new ones come last.
 */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  return runAtOnce(mergePatching(target, patch));
}

/** Members copied between two points where {@link mergePatching} may pause. */
const MEMBERS_PER_STEP = 1024;

/**
 * {@link applyMergePatch} as steps that may pause between the members of a large object (a config's
 * `allLinks`, or a patch of many links), so a server applies a patch to a large config in slices
 * (`util/slices.ts`).
 */
export function* mergePatching(
  target: unknown,
  patch: unknown,
): Sliced<unknown> {
  if (!isPlainObject(patch)) return patch;
  const result: JsonObject = {};
  let step = 0;
  if (isPlainObject(target)) {
    for (const key of Object.keys(target)) {
      if (++step % MEMBERS_PER_STEP === 0) yield;
      setOwn(result, key, target[key]);
    }
  }
  for (const key of Object.keys(patch)) {
    if (++step % MEMBERS_PER_STEP === 0) yield;
    const value = patch[key];
    if (value === null) {
      delete result[key];
    } else {
      const current = Object.hasOwn(result, key) ? result[key] : undefined;
      setOwn(result, key, yield* mergePatching(current, value));
    }
  }
  return result;
}

/**
 * The merge patch that turns `from` into `to` (both objects), with only what differs: removed members as
 * `null`, changed objects as patches of their own, anything else as the new value. `undefined` when no
 * merge patch can say it: `to` holds a `null` inside an object that the patch would have to carry (a
 * patch's `null` means "remove"), or an object of `to` orders its members otherwise than applying a patch
 * would (a patch keeps members in their place and adds new ones last, so a reordered `allLinks`, the
 * order of a menu, needs the whole config).
 */
export function createMergePatch(
  from: JsonObject,
  to: JsonObject,
): JsonObject | undefined {
  if (!keepsOrder(from, to, { addedLast: true })) return undefined;
  const patch: JsonObject = {};
  for (const key of Object.keys(from)) {
    if (!Object.hasOwn(to, key)) setOwn(patch, key, null);
  }
  for (const key of Object.keys(to)) {
    const next = to[key];
    const had = Object.hasOwn(from, key);
    const previous = had ? from[key] : undefined;
    if (isPlainObject(next) && isPlainObject(previous)) {
      // Compared member by member, so a new order of equal members is seen too.
      const inner = createMergePatch(previous, next);
      if (inner === undefined) return undefined;
      if (Object.keys(inner).length > 0) setOwn(patch, key, inner);
      continue;
    }
    if (had && sameValue(previous, next)) continue;
    if (next === null) return undefined;
    if (isPlainObject(next)) {
      if (holdsNullMember(next)) return undefined;
      setOwn(patch, key, next);
    } else {
      setOwn(patch, key, next);
    }
  }
  return patch;
}

/** Whether an object (not an array) at any depth of `value` has a member whose value is `null`. */
function holdsNullMember(value: JsonObject): boolean {
  return Object.values(value).some(
    (member) =>
      member === null || (isPlainObject(member) && holdsNullMember(member)),
  );
}
