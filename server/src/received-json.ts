/**
 * The JSON text a request body was parsed from, remembered per parsed object, so a stored config is kept
 * exactly as received (and is not serialized again). Weak: nothing outlives the request's objects.
 */
const texts = new WeakMap<object, string>();

/** Records that `value` was parsed from `text`. */
export function rememberReceivedJson(value: unknown, text: string): void {
  if (typeof value === 'object' && value !== null) texts.set(value, text);
}

/** The text `value` was parsed from, if the HTTP layer recorded it. */
export function receivedJson(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null
    ? texts.get(value)
    : undefined;
}
