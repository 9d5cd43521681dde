/**
 * A small check that both the zod contracts and the expression engine need. It lives here, outside both,
 * so neither module has to import the other for it (no module cycle).
 */

/** Whether `value` is an object that is not an array (and not null). */
export function isPlainObject(
  value: unknown,
): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
