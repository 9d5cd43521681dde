/**
 * Which procedures a `/trpc` request calls, resolved from its URL the way tRPC's fetch adapter does it
 * (`@trpc/server` 11: `fetchRequestHandler` then `resolveResponse`): slashes trimmed around the path and
 * the endpoint, the rest percent-decoded, then split at `,` when the query has `batch=1`. So
 * `/trpc/configs.put/` calls `configs.put`, and `/trpc/a%2Cb?batch=1` calls `a` and `b`.
 * `server/test/trpc-calls.test.ts` holds this to tRPC's own resolution.
 */
import type { RequestAuth } from '../auth.js';
import { accessDenied } from '../access-check.js';
import type { Access } from '../auth.js';
import { REST_ROUTES } from './routes/route-table.js';
import { requestUrl } from './routes/path-segments.js';

/** The tRPC endpoint of the service. */
export const TRPC_ENDPOINT = '/trpc';

const trimSlashes = (path: string): string =>
  path.replace(/^\//, '').replace(/\/$/, '');

/**
 * The procedure paths, one per call (in order; a batch may name one several times). Empty when tRPC
 * cannot decode the path (it answers 400 and calls nothing).
 */
export function trpcCalls(url: string | URL): string[] {
  const parsed = typeof url === 'string' ? requestUrl(url) : url;
  const endpoint = trimSlashes(TRPC_ENDPOINT);
  const raw = trimSlashes(trimSlashes(parsed.pathname).slice(endpoint.length));
  let path: string;
  try {
    path = decodeURIComponent(raw);
  } catch {
    return [];
  }
  return parsed.searchParams.get('batch') === '1' ? path.split(',') : [path];
}

/** The access each procedure of the route table needs, by procedure path. */
const ACCESS: ReadonlyMap<string, Access> = new Map(
  REST_ROUTES.map((route) => [route.id, route.access]),
);

/**
 * The calls the caller may make at all (its scope; names are checked once the input is read). When it
 * may make none, each would be refused (401/403, or 404 for a name that is no procedure) before its input
 * is read: the request needs neither its body nor a body permit; and the body is read under the limits
 * of the calls it may make only. A procedure outside the route table (a subscription) needs read access,
 * and so does, here, a name that is no procedure.
 */
export function callsAllowed(
  calls: readonly string[],
  auth: RequestAuth,
): string[] {
  return calls.filter(
    (name) => accessDenied(auth, ACCESS.get(name) ?? 'read') === null,
  );
}
