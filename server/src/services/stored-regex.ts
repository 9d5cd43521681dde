/**
 * The `regex` criterion of `/search` over a config read from storage (not cached): building its search
 * index (trigram signatures, the folded haystack, each link's JSON text) costs several times the test
 * itself, and is wasted when the cache will not keep the version. So:
 *
 * 1. the stored text is looked at first: a config whose folded text lacks a literal of every one of the
 *    pattern's lists of literals cannot match, and is not even parsed ({@link textMayMatch});
 * 2. otherwise, when the cache would not keep the version indexed, its links are parsed, sanitized and
 *    read as the index would read them (`indexedLink`, `fieldText`), and each selected field is tested
 *    as the index path tests it (`fieldsMatch`), in catalog order, without an index.
 */
import { BLOCKED_URL, isPlainObject, sanitizeLink } from '@linkconfig/shared';
import { foldCase } from '../versions/fold-case.js';
import type { ConfigVersion } from '../versions/config-version.js';
import { indexedLink } from '../versions/search-index.js';
import type { IndexedLink } from '../versions/search-index.js';
import { jsonString } from '../versions/search-texts.js';
import { fieldsMatch } from './regex-links.js';
import type { RegexQuery } from './regex-links.js';

/**
 * Whether the stored JSON text `json` may hold a match of `query`: `false` only when, for every list of
 * literals, the folded text lacks one of them. Sound because, in a JSON text without `\u` and `\/`
 * escapes, every character of a string (a key, a field's text) other than a quote, a backslash or a
 * control character is written as itself, and folding (`foldCase`) maps each code point on its own: a
 * literal holding none of those characters, found in a folded field, is found in the folded text. A
 * literal that JSON writes otherwise (`jsonString` changes it) is taken as present. A URL a search reads
 * as `about:blank` (sanitized) is not in the text: with `url` selected, what that holds is present too.
 */
export function textMayMatch(json: string, query: RegexQuery): boolean {
  const { literals, fields } = query;
  if (literals === null || json.includes('\\u') || json.includes('\\/')) {
    return true;
  }
  const blocked = fields.has('url') ? foldCase(BLOCKED_URL) : '';
  let folded: string | undefined;
  return literals.some((all) =>
    all.every((literal) => {
      if (jsonString(literal) !== `"${literal}"`) return true;
      if (blocked.includes(literal)) return true;
      folded ??= foldCase(json);
      return folded.includes(literal);
    }),
  );
}

/**
 * How a search tests `version` (read from storage, not cached) against `query`: nothing to test when the
 * stored text rules a match out ({@link textMayMatch}; the version is not even parsed); `undefined` when
 * the cache would keep the version once indexed (`keeps`: the search then builds the index and offers
 * it); else its links tested without an index ({@link scanLinks}), the version dropped afterwards.
 */
export function storedTest(
  version: ConfigVersion,
  query: RegexQuery,
  keeps: (version: ConfigVersion) => boolean,
): Iterable<IndexedLink | null> | undefined {
  const held = version.heldText;
  if (held !== undefined && !textMayMatch(held.json, query)) return [];
  return keeps(version) ? undefined : scanLinks(version.stored, query);
}

/**
 * The links of a stored config (parsed) tested against `query` without a search index, in catalog
 * order: each link a search reads yields itself when a selected field matches, `null` when none does (so
 * the caller counts it and may pause).
 */
export function* scanLinks(
  stored: Record<string, unknown>,
  query: RegexQuery,
): Generator<IndexedLink | null> {
  const allLinks = stored['allLinks'];
  if (!isPlainObject(allLinks)) return;
  for (const id of Object.keys(allLinks)) {
    const entry = indexedLink(id, sanitizeLink(allLinks[id]), false);
    if (entry === undefined) continue;
    yield fieldsMatch(entry, query)
      ? { ...entry, json: JSON.stringify(entry.link) }
      : null;
  }
}
