import { isPlainObject } from '../util/is-plain-object.js';

export { isPlainObject };
export { setOwn } from '../util/own-property.js';
export type { JsonObject } from '../util/own-property.js';

/** The value of an own key, or `undefined` when `value` is not an object or has no such key. */
export function ownValue(value: unknown, key: string): unknown {
  return isPlainObject(value) && Object.hasOwn(value, key)
    ? value[key]
    : undefined;
}
