import { isPlainObject } from '../util/is-plain-object.js';

/** A JSON object value (not an array, not null). */
export type JsonObject = Record<string, unknown>;

export { isPlainObject };

/**
 * Sets `key` on `target` as an own data property, whatever the key (`__proto__` included), so building
 * an object from untrusted keys never changes a prototype.
 */
export function setOwn(target: JsonObject, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/** The value of an own key, or `undefined` when `value` is not an object or has no such key. */
export function ownValue(value: unknown, key: string): unknown {
  return isPlainObject(value) && Object.hasOwn(value, key)
    ? value[key]
    : undefined;
}
