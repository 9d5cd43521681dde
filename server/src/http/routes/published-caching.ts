/**
 * The cache headers of `/published` answers (docs/publishing.md): how long browsers and shared caches
 * may keep them, what they vary by, and the tags a purge names. Everything else of the answer is the
 * contract's.
 */
import { createHash } from 'node:crypto';
import type { PublishedRead } from '../../auth.js';

/** Lifetimes of published answers, in ms (`PUBLISHED_MAX_AGE`, …). */
export interface PublishedLifetimes {
  readonly maxAgeMs: number;
  readonly sMaxAgeMs: number;
  readonly staleWhileRevalidateMs: number;
  readonly staleIfErrorMs: number;
}

/** The headers every cacheable published answer carries. */
export interface PublishedCaching {
  readonly cacheControl: string;
  readonly vary: string;
}

const seconds = (ms: number): number => Math.floor(ms / 1000);

/**
 * With `PUBLISHED_READ=public` answers are the same for everyone: shared caches may keep them
 * (`public`, `s-maxage`), serve them stale while they revalidate, and when the server fails. With `key`
 * the answer depends on the caller's key, so only the caller's own browser may keep it (`private`, and
 * `Vary: Authorization` for any cache that would anyway). Either way answers vary by `Origin`: a page of
 * another site gets only the configs published for its origin, with CORS headers naming it
 * (`middleware/published-cors.ts`).
 */
export function publishedCaching(
  read: PublishedRead,
  life: PublishedLifetimes,
): PublishedCaching {
  if (read === 'key') {
    return {
      cacheControl: `private, max-age=${seconds(life.maxAgeMs)}`,
      vary: 'Accept-Encoding, Authorization, Origin',
    };
  }
  return {
    cacheControl: [
      'public',
      `max-age=${seconds(life.maxAgeMs)}`,
      `s-maxage=${seconds(life.sMaxAgeMs)}`,
      `stale-while-revalidate=${seconds(life.staleWhileRevalidateMs)}`,
      `stale-if-error=${seconds(life.staleIfErrorMs)}`,
    ].join(', '),
    vary: 'Accept-Encoding, Origin',
  };
}

/**
 * The headers of an answer that never changes (`rest.immutable`: a stored revision,
 * `GET /configs/:name/revisions/:rev`): a year, `immutable` (no revalidation even on reload), and
 * `private`. Private whatever the server's access rules are now, because they can change: a revision
 * is read under the key rules (`READ_TOKEN`, `ANONYMOUS_READ`, keys), and a shared cache holding it for
 * a year would go on handing it out after its name was closed or its key revoked. The caller's own
 * cache keeps only what that caller already read (`Vary: Authorization`: not for another key).
 */
export const IMMUTABLE_CACHING: Readonly<Record<string, string>> = {
  'Cache-Control': 'private, max-age=31536000, immutable',
  Vary: 'Accept-Encoding, Authorization',
};

/** The tags of an answer (`Surrogate-Key`; the rule is `services/purge.ts`'s, which purges by them). */
export { answerTags as surrogateKeys } from '../../services/purge.js';

/** A strong ETag of a JSON answer's bytes (lists, searches): equal bytes, equal tag. */
export function bodyEtag(body: string): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}
