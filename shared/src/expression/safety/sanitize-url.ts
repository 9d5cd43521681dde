/**
 * URL sanitization (docs/expression-reference.md §15): a URL whose normalized form starts with a
 * script-capable scheme becomes `about:blank`; every other URL is returned unchanged, control characters
 * included.
 */
import { trimWhitespace } from '../syntax/whitespace.js';

/** What dangerous URLs are replaced with. */
export const BLOCKED_URL = 'about:blank';

// eslint-disable-next-line no-control-regex -- the point is to delete control characters
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/g;

/**
 * `javascript`, `data`, `vbscript` or `blob` in any ASCII case, optional whitespace
 * (docs/expression-reference.md §2), then `:`.
 */
const BLOCKED_SCHEME =
  /^(?:javascript|data|vbscript|blob)[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]*:/i;

/** Sanitizes one URL (docs/expression-reference.md §15). Idempotent. */
export function sanitizeUrl(url: string): string {
  if (url === '') return url;
  const normalized = trimWhitespace(url.replace(CONTROL_CHARS, ''));
  return BLOCKED_SCHEME.test(normalized) ? BLOCKED_URL : url;
}
