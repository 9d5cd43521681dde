/**
 * Deep copies without the blocked keys `__proto__`, `constructor` and `prototype`
 * (docs/expression-reference.md §13). Iterative (an explicit stack), so nesting depth is unbounded; shared
 * references and cycles are copied once.
 */
import { isPlainObject } from '../../util/is-plain-object.js';
import { BLOCKED_KEYS } from '../../util/own-property.js';

export { BLOCKED_KEYS };

/** A property of `source` by own key only (inherited members never count). */
export function ownValue(source: object, key: string): unknown {
  return Object.hasOwn(source, key)
    ? (source as Record<string, unknown>)[key]
    : undefined;
}

type Container = Record<string, unknown> | unknown[];

/** A new empty container of the same kind as `value`, or `undefined` for primitives. */
function emptyLike(value: unknown): Container | undefined {
  if (Array.isArray(value)) return [];
  if (isPlainObject(value)) return {};
  return undefined;
}

/** A deep copy of `value` with the blocked keys removed at every depth. */
export function cleanValue(value: unknown): unknown {
  const root = emptyLike(value);
  if (root === undefined) return value;
  const copies = new Map<object, Container>([[value as object, root]]);
  const stack: [object, Container][] = [[value as object, root]];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const [source, target] = item;
    const isArray = Array.isArray(source);
    const keys = isArray ? source.map((_, i) => i) : Object.keys(source);
    for (const key of keys) {
      if (typeof key === 'string' && BLOCKED_KEYS.has(key)) continue;
      const child = (source as Record<string | number, unknown>)[key];
      let copy: unknown = child;
      const fresh = emptyLike(child);
      if (fresh !== undefined) {
        const seen = copies.get(child as object);
        if (seen === undefined) {
          copies.set(child as object, fresh);
          stack.push([child as object, fresh]);
          copy = fresh;
        } else {
          copy = seen;
        }
      }
      (target as Record<string | number, unknown>)[key] = copy;
    }
  }
  return root;
}
