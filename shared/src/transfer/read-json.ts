/**
 * Reads JSON: a config as the service stores it (`{ allLinks, macros?, … }`), a config entry as
 * `GET /configs/:name` answers it (`{ config, meta }`), or a bare `allLinks` object (`{ id: { url, … } }`).
 * Ids are kept as they are written; the other fields of a link travel along unchanged. A text that
 * `JSON.parse` would not keep as written (a repeated key, a number a double cannot hold) is refused, as
 * the API refuses such a body.
 */
import type {
  ImportCandidate,
  ReadImportResult,
  SkippedLink,
} from '../schemas/index.js';
import { findJsonInfidelity } from '../schemas/json-fidelity.js';
import { setOwn } from '../sync/own-keys.js';
import { isPlainObject } from '../util/is-plain-object.js';
import { sourceLines } from './source-lines.js';

/** The link fields an import reads itself; every other field is kept as `extra`. */
const READ_FIELDS = new Set(['url', 'label', 'tags', 'description', 'meta']);

/** The `allLinks` object and other sections of a parsed JSON value, or why there is none. */
function linksOf(
  value: unknown,
):
  | { links: Record<string, unknown>; sections: Record<string, unknown> }
  | string {
  if (!isPlainObject(value)) return 'the JSON file must hold an object';
  if (
    isPlainObject(value['config']) &&
    isPlainObject(value['config']['allLinks'])
  ) {
    return linksOf(value['config']);
  }
  if (Object.hasOwn(value, 'allLinks')) {
    const { allLinks, ...sections } = value;
    return isPlainObject(allLinks)
      ? { links: allLinks, sections }
      : '"allLinks" must be an object of links';
  }
  const entries = Object.values(value);
  if (entries.length > 0 && entries.every(isPlainObject)) {
    return { links: value, sections: {} };
  }
  return 'the JSON file is neither a config (with "allLinks") nor an object of links';
}

/** Reads JSON text. */
export function readJson(input: string): ReadImportResult {
  const text = input.startsWith('\uFEFF') ? input.slice(1) : input;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      error: `the file is not valid JSON (${error instanceof Error ? error.message : String(error)})`,
    };
  }
  // What the API refuses in a body is refused here too: the config written would not be the file's.
  const unfaithful = findJsonInfidelity(text);
  if (unfaithful !== undefined) {
    return {
      ok: false,
      error: `the file cannot be imported as written: at ${unfaithful.path}, ${unfaithful.reason}`,
    };
  }
  const found = linksOf(value);
  if (typeof found === 'string') return { ok: false, error: found };
  const positionAt = sourceLines(text);
  const candidates: ImportCandidate[] = [];
  const skipped: SkippedLink[] = [];
  let searchFrom = 0;
  for (const [id, link] of Object.entries(found.links)) {
    // The key's place in the text, found in order: good enough to point a person at it.
    const at = text.indexOf(JSON.stringify(id), searchFrom);
    if (at !== -1) searchFrom = at + 1;
    const position = { line: positionAt(Math.max(at, 0)).line };
    if (!isPlainObject(link) || typeof link['url'] !== 'string') {
      skipped.push({ position, reason: `link "${id}" has no url text` });
      continue;
    }
    const extra: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(link)) {
      // Own properties whatever the key: a field named `__proto__` in the file stays a field.
      if (!READ_FIELDS.has(key)) setOwn(extra, key, field);
    }
    const tags = Array.isArray(link['tags'])
      ? link['tags'].filter((tag): tag is string => typeof tag === 'string')
      : [];
    const { label, description, meta } = link;
    candidates.push({
      url: link['url'],
      ...(typeof label === 'string' ? { label } : {}),
      tags,
      folders: [],
      ...(typeof description === 'string' ? { description } : {}),
      id,
      ...(Object.keys(extra).length > 0 ? { extra } : {}),
      ...(isPlainObject(meta) ? { meta } : {}),
      position,
    });
  }
  return {
    ok: true,
    parsed: {
      format: 'json',
      candidates,
      skipped,
      ...(Object.keys(found.sections).length > 0
        ? { sections: found.sections }
        : {}),
    },
  };
}
