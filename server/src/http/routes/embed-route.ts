import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import type { Context as HonoContext, Hono } from 'hono';
import { HttpError } from '../http-error.js';
import { etagMatches } from './entry-response.js';
import { bodyEtag } from './published-caching.js';

/** The embed script, as the server package ships it (`server/assets/embed.js`, beside `src` and `dist`). */
export const EMBED_SCRIPT_FILE = new URL(
  '../../../assets/embed.js',
  import.meta.url,
);

/** The path sites load it from. */
export const EMBED_PATH = '/published/embed.js';

/**
 * A page may keep the script an hour, a shared cache a day (a new server version changes its ETag, and
 * pages revalidate within the hour).
 */
const CACHE_CONTROL =
  'public, max-age=3600, s-maxage=86400, stale-while-revalidate=86400';

/**
 * `GET /published/embed.js` (docs/publishing.md#embed): the small script a site adds after Alap's own to
 * load a published config into it. A static asset, read once when the app is built: JavaScript content
 * type, cacheable, a strong ETag (304), gzip for clients that accept it.
 */
export function mountEmbedRoute(app: Hono): void {
  const source = new Uint8Array(readFileSync(EMBED_SCRIPT_FILE));
  const gzipped = new Uint8Array(gzipSync(source, { level: 9 }));
  const etag = bodyEtag(new TextDecoder().decode(source));
  const answer = (c: HonoContext): Response => {
    const headers: Record<string, string> = {
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': CACHE_CONTROL,
      ETag: etag,
      Vary: 'Accept-Encoding',
    };
    const match = c.req.header('if-none-match');
    if (match !== undefined && etagMatches(match, etag)) {
      return new Response(null, { status: 304, headers });
    }
    if (/\bgzip\b/.test(c.req.header('accept-encoding') ?? '')) {
      headers['Content-Encoding'] = 'gzip';
      return new Response(gzipped, { headers });
    }
    return new Response(source, { headers });
  };
  app.get(EMBED_PATH, answer);
  app.all(EMBED_PATH, () => {
    throw new HttpError(405, 'method not allowed; use GET', { Allow: 'GET' });
  });
}
