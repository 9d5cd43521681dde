/**
 * The one sanitization of a stored link for responses: every response path that returns links as stored (`GET
 * /configs/:name`, `/search`, the client's local reads) sanitizes the same fields as config preparation does
 * (docs/expression-reference.md §13, §15): `url`, `image`, `thumbnail`, and every string value of `meta`
 * whose key ends in `url` in any case.
 */
import { isPlainObject } from '../../util/is-plain-object.js';
import { runAtOnce } from '../../util/slices.js';
import type { Sliced } from '../../util/slices.js';
import { sanitizeUrl } from './sanitize-url.js';
import { setOwn } from '../../util/own-property.js';

const URL_FIELDS = ['url', 'image', 'thumbnail'] as const;

/** `meta` with its `…url` string values sanitized; the same object when nothing changes. */
function sanitizeMeta(meta: Record<string, unknown>): Record<string, unknown> {
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(meta)) {
    const value = meta[key];
    if (typeof value !== 'string' || !key.toLowerCase().endsWith('url')) {
      continue;
    }
    const clean = sanitizeUrl(value);
    if (clean === value) continue;
    copy ??= { ...meta };
    setOwn(copy, key, clean);
  }
  return copy ?? meta;
}

/**
 * A link with its URL-bearing values sanitized: the same object when nothing changes (the common
 * case), else a shallow copy with key order kept. Values of other types are left as they are.
 */
export function sanitizeLink<T>(link: T): T {
  if (!isPlainObject(link)) return link;
  let copy: Record<string, unknown> | undefined;
  for (const field of URL_FIELDS) {
    const value = link[field];
    if (typeof value !== 'string') continue;
    const clean = sanitizeUrl(value);
    if (clean === value) continue;
    copy ??= { ...link };
    setOwn(copy, field, clean);
  }
  const meta = link['meta'];
  if (isPlainObject(meta)) {
    const clean = sanitizeMeta(meta);
    if (clean !== meta) {
      copy ??= { ...link };
      setOwn(copy, 'meta', clean);
    }
  }
  return (copy ?? link) as T;
}

/**
 * A config whose links are sanitized by {@link sanitizeLink}: the same object when nothing changes,
 * else a copy that shares every unchanged link and section. Key order is kept.
 */
export function sanitizeConfigLinks<T>(config: T): T {
  return runAtOnce(sanitizingConfigLinks(config));
}

/** Links sanitized between two points where {@link sanitizingConfigLinks} may pause. */
const LINKS_PER_STEP = 256;

/** {@link sanitizeConfigLinks} as steps that may pause between links (`util/slices.ts`). */
export function* sanitizingConfigLinks<T>(config: T): Sliced<T> {
  if (!isPlainObject(config)) return config;
  const allLinks = config['allLinks'];
  if (!isPlainObject(allLinks)) return config;
  let links: Record<string, unknown> | undefined;
  let step = 0;
  for (const id of Object.keys(allLinks)) {
    if (++step % LINKS_PER_STEP === 0) yield;
    const link = allLinks[id];
    const clean = sanitizeLink(link);
    if (clean === link) continue;
    links ??= { ...allLinks };
    setOwn(links, id, clean);
  }
  return links === undefined ? config : ({ ...config, allLinks: links } as T);
}
