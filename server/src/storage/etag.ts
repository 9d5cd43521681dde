/**
 * Entity tags of stored versions, and the `If-Match` / `If-None-Match` lists that name them. One
 * definition for the repositories (which check preconditions inside their write transactions) and for
 * HTTP (which sends the tags), so every instance computes the same tag for the same version.
 */

/** What identifies a stored version: its database-wide version number and its `updatedAt`. */
export interface VersionStamp {
  readonly version: number;
  readonly updatedAt: string;
}

/** `*`, or the entity tags of a list header, each as sent (quotes and any `W/` prefix kept). */
export type EntityTags = '*' | readonly string[];

/**
 * The strong ETag of a stored version: `"<version base 36>-<updatedAt ms base 36>"`. Versions are never
 * reused within a database; the time keeps tags apart across databases that were reset.
 */
export function etagOf(stamp: VersionStamp): string {
  return `"${stamp.version.toString(36)}-${Date.parse(stamp.updatedAt).toString(36)}"`;
}

/** One list element: an optionally weak quoted tag (RFC 9110 `entity-tag`), then a comma or the end. */
const ELEMENT = /[ \t]*((?:W\/)?"[\x21\x23-\x7e\x80-\uffff]*")[ \t]*(?:,|$)/y;
/** Empty list elements (`a, , b`) are allowed by the list syntax and ignored. */
const EMPTY_ELEMENT = /[ \t]*,/y;

/**
 * Parses an `If-Match` / `If-None-Match` value: `*` or a comma-separated list of quoted entity tags.
 * `null` when the value is malformed (an unquoted tag is the usual mistake).
 */
export function parseEntityTags(value: string): EntityTags | null {
  if (value.trim() === '*') return '*';
  const tags: string[] = [];
  let at = 0;
  while (at < value.length) {
    EMPTY_ELEMENT.lastIndex = at;
    if (EMPTY_ELEMENT.test(value)) {
      at = EMPTY_ELEMENT.lastIndex;
      continue;
    }
    ELEMENT.lastIndex = at;
    const match = ELEMENT.exec(value);
    if (match === null) return value.slice(at).trim() === '' ? done() : null;
    tags.push(match[1] ?? '');
    at = ELEMENT.lastIndex;
  }
  return done();

  function done(): EntityTags | null {
    return tags.length === 0 ? null : tags;
  }
}

/**
 * Whether `etag` is in the list, by strong comparison (`If-Match`): a weak tag never matches, because a
 * write must be based on exactly the stored bytes.
 */
export function matchesStrongly(tags: EntityTags, etag: string): boolean {
  return tags === '*' || tags.includes(etag);
}

/** Whether `etag` is in the list, by weak comparison (`If-None-Match`): `W/` is ignored. */
export function matchesWeakly(tags: EntityTags, etag: string): boolean {
  return (
    tags === '*' ||
    tags.some((tag) => (tag.startsWith('W/') ? tag.slice(2) : tag) === etag)
  );
}
