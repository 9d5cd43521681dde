/** Which imported URLs are stored: every URL goes through the shared sanitizer first (§15). */
import { BLOCKED_URL, sanitizeUrl } from '../expression/safety/sanitize-url.js';

/** Schemes that only mean something inside one browser (Firefox's `place:` queries, settings pages). */
const BROWSER_SCHEMES = new Set([
  'place',
  'about',
  'chrome',
  'edge',
  'opera',
  'vivaldi',
  'brave',
  'resource',
  'moz-extension',
  'chrome-extension',
  'safari-extension',
]);

/** Why `url` is not imported, or `null` when it is. */
export function urlProblem(url: string): string | null {
  if (url.trim() === '') return 'the link has no URL';
  if (sanitizeUrl(url) === BLOCKED_URL && url !== BLOCKED_URL) {
    return 'a script-capable URL (javascript:, data:, vbscript:, blob:) is never stored';
  }
  if (url.startsWith('/') && !url.startsWith('//')) return null;
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return 'not a valid absolute URL';
  }
  const scheme = parsed.protocol.slice(0, -1).toLowerCase();
  if (BROWSER_SCHEMES.has(scheme)) {
    return `a browser-internal URL (${scheme}:) that opens nothing elsewhere`;
  }
  return null;
}
