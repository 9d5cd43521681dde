import { isPlainObject } from '../util/is-plain-object.js';
import type { JsonObject } from '../util/own-property.js';

export { isPlainObject };
export { setOwn } from '../util/own-property.js';
export type { JsonObject } from '../util/own-property.js';

/** The value of an own key, or `undefined` when `value` is not an object or has no such key. */
export function ownValue(value: unknown, key: string): unknown {
  return isPlainObject(value) && Object.hasOwn(value, key)
    ? value[key]
    : undefined;
}

/**
 * Whether the members `from` and `to` both have come in the same order in both (the order of a menu is
 * the order of `allLinks`); with `addedLast`, also whether every member only `to` has comes after them
 * (what applying a merge patch to `from` gives).
 */
export function keepsOrder(
  from: JsonObject,
  to: JsonObject,
  { addedLast }: { readonly addedLast: boolean },
): boolean {
  let previous = -1;
  let added = false;
  const places = new Map(Object.keys(from).map((key, index) => [key, index]));
  for (const key of Object.keys(to)) {
    const place = places.get(key);
    if (place === undefined) {
      added = true;
      continue;
    }
    if ((addedLast && added) || place < previous) return false;
    previous = place;
  }
  return true;
}

/** Whether two values with the same members (objects) list them in the same order; true for non-objects. */
export function sameKeyOrder(a: unknown, b: unknown): boolean {
  if (!isPlainObject(a) || !isPlainObject(b)) return true;
  const left = Object.keys(a);
  const right = Object.keys(b);
  return (
    left.length === right.length && left.every((key, i) => key === right[i])
  );
}
