import type { Context as HonoContext } from 'hono';
import { stringWeight } from '../cache/weights.js';
import { ConfigVersion } from '../services/config-version.js';
import { compress, MIN_COMPRESSED_BYTES } from './compression.js';
import type { Encoding } from './compression.js';

const BODY = Symbol('GET /configs/:name body');
const ENCODED: Record<Encoding, symbol> = {
  br: Symbol('GET /configs/:name body, br'),
  gzip: Symbol('GET /configs/:name body, gzip'),
};

/**
 * The ETag of a stored version. It names the version, not the bytes on the wire: the same tag goes
 * with every `Content-Encoding` (hence `Vary: Accept-Encoding`), so a client can send it back in
 * `If-None-Match` or `If-Match` whichever encoding it received.
 */
export function etagOf(view: ConfigVersion): string {
  return `"${view.version.toString(36)}-${Date.parse(view.updatedAt).toString(36)}"`;
}

/** `If-None-Match` holds the tag (weak comparison, lists and `*` allowed). */
export function etagMatches(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  return header
    .split(',')
    .some((candidate) => candidate.trim().replace(/^W\//, '') === etag);
}

/**
 * The answer of `GET /configs/:name`: the entry's bytes, serialized once per stored version (and
 * compressed once per encoding), kept with the version in the version cache; its ETag; 304 when the
 * client's copy is current.
 */
export async function entryResponse(
  c: HonoContext,
  entry: unknown,
  encoding: Encoding | null,
): Promise<Response> {
  const view = ConfigVersion.ofEntry(entry);
  if (view === undefined) {
    return new Response(JSON.stringify(entry), {
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
    });
  }
  const etag = etagOf(view);
  const headers: Record<string, string> = {
    'Cache-Control': 'no-cache',
    ETag: etag,
    Vary: 'Accept-Encoding',
  };
  const match = c.req.header('if-none-match');
  if (match !== undefined && etagMatches(match, etag)) {
    return new Response(null, { status: 304, headers });
  }
  const body = view.derive(BODY, () => {
    const text = JSON.stringify(view.entry);
    return { value: text, weight: stringWeight(text) };
  });
  headers['Content-Type'] = 'application/json; charset=utf-8';
  if (encoding === null || body.length < MIN_COMPRESSED_BYTES) {
    return new Response(body, { headers });
  }
  // Compressed once per version and encoding; weighed at the uncompressed size (an upper bound) since
  // the weight is needed before the compression finishes.
  const bytes = await view.derive(ENCODED[encoding], () => ({
    value: compress(body, encoding, 'once'),
    weight: stringWeight(body),
  }));
  headers['Content-Encoding'] = encoding;
  return new Response(bytes, { headers });
}
