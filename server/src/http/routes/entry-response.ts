import type { Context as HonoContext } from 'hono';
import type { Outcome } from '../../outcome.js';
import { entryBytes } from '../../versions/entry-bytes.js';
import { matchesWeakly, parseEntityTags } from '../../storage/etag.js';
import { compress, MIN_COMPRESSED_BYTES } from '../middleware/compression.js';
import type { Encoding } from '../middleware/compression.js';

const ENCODED: Record<Encoding, symbol> = {
  br: Symbol('GET /configs/:name body, br'),
  gzip: Symbol('GET /configs/:name body, gzip'),
};

/** `If-None-Match` holds the tag (weak comparison, lists and `*` allowed; a malformed list never does). */
export function etagMatches(header: string, etag: string): boolean {
  const tags = parseEntityTags(header);
  return tags !== null && matchesWeakly(tags, etag);
}

/**
 * The answer of `GET /configs/:name`: the bytes of the outcome's stored version (`versions/entry-bytes.ts`,
 * compressed here once per encoding), kept with the version in the version cache; its ETag; 304 when the
 * client's copy is current. An outcome without a version answers its value as JSON. The answer comes
 * back at once (no promise, no turn of the microtask queue) unless it waits for a compression.
 */
export function entryResponse(
  c: HonoContext,
  outcome: Outcome<unknown>,
  answer: {
    encoding: Encoding | null;
    /**
     * The answer's headers so far, made for this answer alone: the entry's own are added to this object.
     * (Properties added one by one to a fresh object stay on V8's fast path; an object spread followed by
     * more properties misses its inline caches on every request, a few microseconds each time.)
     */
    headers: Record<string, string>;
    /** The cache headers of a `/published` answer (absent: `no-cache`, revalidate every time). */
    caching?:
      { readonly cacheControl: string; readonly vary: string } | undefined;
  },
): Response | Promise<Response> {
  const { encoding, headers } = answer;
  const view = outcome.version;
  if (view === undefined) {
    headers['Content-Type'] = 'application/json; charset=utf-8';
    return new Response(JSON.stringify(outcome.value), { headers });
  }
  // The tag names the version, not the bytes on the wire: the same tag goes with every
  // `Content-Encoding` (hence `Vary`), so it can come back in `If-None-Match` or `If-Match`.
  const etag = view.etag;
  headers['Cache-Control'] = answer.caching?.cacheControl ?? 'no-cache';
  headers['ETag'] = etag;
  headers['Vary'] = answer.caching?.vary ?? 'Accept-Encoding';
  const match = c.req.header('if-none-match');
  if (match !== undefined && etagMatches(match, etag)) {
    return new Response(null, { status: 304, headers });
  }
  const body = entryBytes(view);
  headers['Content-Type'] = 'application/json; charset=utf-8';
  if (encoding === null || body.byteLength < MIN_COMPRESSED_BYTES) {
    return new Response(body, { headers });
  }
  // Compressed once per version and encoding; weighed at the uncompressed size (an upper bound) since
  // the weight is needed before the compression finishes.
  const bytes = view.derive(ENCODED[encoding], () => ({
    value: compress(body, encoding, 'once'),
    weight: body.byteLength + 64,
  }));
  return bytes.then((compressed) => {
    headers['Content-Encoding'] = encoding;
    return new Response(compressed, { headers });
  });
}
