/**
 * The server's rule for URLs in answers, applied to local reads: a local store hands out configs whose
 * link URLs are safe to put into a page, as the server does, while the stored data stays exactly as
 * saved. The rule itself is written once, in `@linkconfig/shared` ({@link sanitizeConfigLinks}), and
 * the server answers through the same function.
 */
import { sanitizeConfigLinks } from '@linkconfig/shared';
import type { ConfigEntry, LinkConfig } from '@linkconfig/shared';

/**
 * A config whose link URLs (`url`, `image`, `thumbnail`, and `meta` keys ending in `url`) are sanitized.
 * Key order is kept; when nothing is dangerous the same object is returned.
 */
export function sanitizeConfig(config: LinkConfig): LinkConfig {
  return sanitizeConfigLinks(config);
}

/** {@link sanitizeConfig} for an entry. */
export function sanitizeEntry(entry: ConfigEntry): ConfigEntry {
  const config = sanitizeConfig(entry.config);
  return config === entry.config ? entry : { config, meta: entry.meta };
}
