/**
 * The fields of a link beyond label, URL, tags and description, as the edit form shows them: one
 * key/value pair each. A text value is edited as it is; any other value (a list, an object, a number)
 * as JSON. A new value that starts with `[` or `{` is read as JSON too. Pure functions.
 */
import { BLOCKED_KEYS, LinkSchema } from '@linkconfig/shared';
import type { Link } from '@linkconfig/shared';

/** One extra field in the form. */
export interface ExtraField {
  key: string;
  value: string;
  /** The value is JSON (the stored value was not text). */
  json: boolean;
}

/** The fields the form has an own input for; the rest are extra. */
export const OWN_FIELDS: readonly string[] = [
  'url',
  'label',
  'tags',
  'description',
];

/** Names a field cannot have: the engine drops them, or they are the link's id. */
const RESERVED: ReadonlySet<string> = new Set([...BLOCKED_KEYS, 'id']);

/** The extra fields of `link`, in its order. */
export function extraFields(link: Link | undefined): ExtraField[] {
  if (link === undefined) return [];
  return Object.entries(link)
    .filter(([key]) => !OWN_FIELDS.includes(key))
    .map(([key, value]) =>
      typeof value === 'string'
        ? { key, value, json: false }
        : { key, value: JSON.stringify(value), json: true },
    );
}

/** Whether a field's value is read as JSON. */
function readsAsJson(field: ExtraField): boolean {
  return field.json || /^\s*[[{]/.test(field.value);
}

/** A problem with one extra field, by its place in the list; `null` when all are fine. */
export interface ExtraProblem {
  index: number;
  part: 'key' | 'value';
  problem: string;
}

/** The extra fields as values, or the first problem with them. */
export function parseExtras(
  fields: readonly ExtraField[],
):
  | { ok: true; values: Record<string, unknown> }
  | ({ ok: false } & ExtraProblem) {
  const values: Record<string, unknown> = {};
  for (const [index, field] of fields.entries()) {
    const key = field.key.trim();
    const bad = (part: 'key' | 'value', problem: string) =>
      ({ ok: false, index, part, problem }) as const;
    if (key === '') return bad('key', 'Enter a field name, or remove the row.');
    if (OWN_FIELDS.includes(key))
      return bad('key', `“${key}” has its own field above.`);
    if (RESERVED.has(key))
      return bad('key', `“${key}” cannot be a field name.`);
    if (Object.hasOwn(values, key))
      return bad('key', `There is another field “${key}”.`);
    let value: unknown = field.value;
    if (readsAsJson(field)) {
      try {
        value = JSON.parse(field.value);
      } catch {
        return bad('value', 'This is not valid JSON.');
      }
    }
    // The shared schema says what the known fields hold (hooks: a list of texts, …).
    const known = LinkSchema.shape[key as keyof typeof LinkSchema.shape];
    if (known !== undefined && !known.safeParse(value).success)
      return bad('value', knownFieldHint(key));
    values[key] = value;
  }
  return { ok: true, values };
}

/** What a known field must hold, in words. */
function knownFieldHint(key: string): string {
  switch (key) {
    case 'hooks':
    case 'allowedSchemes':
      return `“${key}” holds a list of texts, such as ["a", "b"].`;
    case 'meta':
      return '“meta” holds an object, such as {"owner": "web"}.';
    default:
      return `“${key}” holds text.`;
  }
}
