/**
 * The two rules about keys that come from data (ids, field names, settings, imported files), written
 * once for shared/, the server and the page: the keys preparation removes at every depth of a config
 * (docs/expression-reference.md §13), and setting a member as an own data property whatever its key, so
 * an object built from untrusted keys never changes a prototype.
 */

/** A JSON object value (not an array, not null). */
export type JsonObject = Record<string, unknown>;

/** Keys removed at every depth of a config: links, macros or settings under them vanish. */
export const BLOCKED_KEYS: ReadonlySet<string> = new Set([
  '__proto__',
  'constructor',
  'prototype',
]);

/** Whether preparation removes `key` (one of {@link BLOCKED_KEYS}). */
export function isBlockedKey(key: string): boolean {
  return BLOCKED_KEYS.has(key);
}

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
