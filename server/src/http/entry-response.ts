import type { Context as HonoContext } from 'hono';
import { stringWeight } from '../cache/weights.js';
import { ConfigVersion } from '../services/config-version.js';

const BODY = Symbol('GET /configs/:name body');

/** The strong ETag of a stored version (changes with every write of the name). */
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
 * The answer of `GET /configs/:name`: the entry's bytes, serialized once per stored version and kept
 * with it in the version cache, its ETag, and 304 when the client's copy is current.
 */
export function entryResponse(c: HonoContext, entry: unknown): Response {
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
  return new Response(body, { headers });
}
