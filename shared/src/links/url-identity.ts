/**
 * The one rule of when two links point at the same page (duplicates; import's "same URL"): the URLs are
 * equal after normalization. `http` and `https` are one scheme; the host is lower-cased and loses any
 * leading `www.`; a port that is the scheme's default is dropped; trailing slashes of the path are
 * dropped; tracking parameters (`utm_*`, `fbclid`, `gclid` and their kin) and the fragment are removed.
 * Everything else (path case, the other query parameters and their order, credentials) is kept, so two
 * different hosts or two different paths are never one.
 */

/** Query parameters that only track a visit (exact names; every `utm_*` as well). */
const TRACKING_PARAMETERS = new Set([
  'fbclid',
  'gclid',
  'dclid',
  'gbraid',
  'wbraid',
  'msclkid',
  'mc_eid',
  'igshid',
]);

/** Whether a query parameter's name only tracks a visit. */
export function isTrackingParameter(name: string): boolean {
  const lower = name.toLowerCase();
  return lower.startsWith('utm_') || TRACKING_PARAMETERS.has(lower);
}

/** The host without its leading `www.` labels (`www.example.com` → `example.com`; `www` alone stays). */
function withoutWww(host: string): string {
  let out = host;
  while (out.startsWith('www.') && out.indexOf('.', 4) !== -1)
    out = out.slice(4);
  return out;
}

/** The query without tracking parameters, kept byte for byte otherwise (`''` or `?…`). */
function withoutTracking(search: string): string {
  if (search === '' || search === '?') return '';
  const kept = search
    .slice(1)
    .split('&')
    .filter((pair) => {
      if (pair === '') return false;
      const eq = pair.indexOf('=');
      const rawName = eq === -1 ? pair : pair.slice(0, eq);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replaceAll('+', ' '));
      } catch {
        // A malformed escape is a name of its own, never a tracking parameter.
      }
      return !isTrackingParameter(name);
    });
  return kept.length === 0 ? '' : `?${kept.join('&')}`;
}

/**
 * The normalized form of a URL: an `https:` URL text without fragment, tracking parameters, `www.`, default
 * port or trailing slash; a URL of another scheme without its fragment; text that is no absolute URL,
 * trimmed. Idempotent: normalizing the result gives the result.
 */
export function normalizeUrl(url: string): string {
  const trimmed = url.trim();
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    return trimmed;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    parsed.hash = '';
    return parsed.href;
  }
  const port = parsed.port === '80' || parsed.port === '443' ? '' : parsed.port;
  const host = withoutWww(parsed.hostname) + (port === '' ? '' : `:${port}`);
  const credentials =
    parsed.username === '' && parsed.password === ''
      ? ''
      : `${parsed.username}${parsed.password === '' ? '' : `:${parsed.password}`}@`;
  let path = parsed.pathname;
  while (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  if (path === '/') path = '';
  const text = `https://${credentials}${host}${path}${withoutTracking(parsed.search)}`;
  // The text is read back once, so what URL parsing changes (escapes, an empty host's form) is applied.
  try {
    return new URL(text).href;
  } catch {
    return text;
  }
}
