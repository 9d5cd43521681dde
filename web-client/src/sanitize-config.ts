/**
 * The client's copy of the server's rule for URLs in answers: a local store hands out configs whose link
 * URLs are safe to put into a page, as the server does, while the stored data stays exactly as saved.
 */
import { isPlainObject, sanitizeUrl } from '@linkconfig/shared';
import type { ConfigEntry, LinkConfig } from '@linkconfig/shared';

/** Link fields that hold URLs. */
const URL_FIELDS = ['url', 'image', 'thumbnail'] as const;

/** A copy of `link` with its URLs sanitized, or `link` itself when nothing needed to change. */
function sanitizeLink(link: Record<string, unknown>): Record<string, unknown> {
  let copy: Record<string, unknown> | undefined;
  for (const field of URL_FIELDS) {
    const value = link[field];
    if (typeof value !== 'string') continue;
    const clean = sanitizeUrl(value);
    if (clean !== value) (copy ??= { ...link })[field] = clean;
  }
  const meta = link['meta'];
  if (isPlainObject(meta)) {
    let metaCopy: Record<string, unknown> | undefined;
    for (const key of Object.keys(meta)) {
      const value = meta[key];
      // `meta.imageUrl`, `meta.iconURL`, …: any key ending in "url", in any case.
      if (typeof value !== 'string' || !key.toLowerCase().endsWith('url'))
        continue;
      const clean = sanitizeUrl(value);
      if (clean !== value) defineOwn((metaCopy ??= { ...meta }), key, clean);
    }
    if (metaCopy) (copy ??= { ...link })['meta'] = metaCopy;
  }
  return copy ?? link;
}

/**
 * A config whose link URLs (`url`, `image`, `thumbnail`, and `meta` keys ending in `url`) are sanitized.
 * Key order is kept; when nothing is dangerous the same object is returned.
 */
export function sanitizeConfig(config: LinkConfig): LinkConfig {
  const allLinks: unknown = config.allLinks;
  if (!isPlainObject(allLinks)) return config;
  let changed: Record<string, unknown> | undefined;
  for (const id of Object.keys(allLinks)) {
    const link = allLinks[id];
    if (!isPlainObject(link)) continue;
    const clean = sanitizeLink(link);
    if (clean !== link) defineOwn((changed ??= { ...allLinks }), id, clean);
  }
  return changed ? ({ ...config, allLinks: changed } as LinkConfig) : config;
}

/** {@link sanitizeConfig} for an entry. */
export function sanitizeEntry(entry: ConfigEntry): ConfigEntry {
  const config = sanitizeConfig(entry.config);
  return config === entry.config ? entry : { config, meta: entry.meta };
}

/** Sets an own property even for keys such as `__proto__` (assignment would change the prototype). */
function defineOwn(
  target: Record<string, unknown>,
  key: string,
  value: unknown,
): void {
  Object.defineProperty(target, key, {
    value,
    writable: true,
    enumerable: true,
    configurable: true,
  });
}
