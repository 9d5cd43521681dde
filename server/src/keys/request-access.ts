import { bearerOf, createAuthenticator } from '../auth.js';
import type { AuthSettings, RequestAuth } from '../auth.js';
import { SECRET_PREFIX } from './key-secret.js';
import type { KeyLookup } from './key-lookup.js';

/**
 * The access of a request from its `Authorization` header: configured tokens are checked in memory, a
 * key (`lck_…`) is found through the lookup (kept ≤ 500 ms, so a revoke elsewhere applies within a
 * second), and whether the server is open (no `API_TOKEN`, no key ever stored) is asked of storage at
 * most twice a second until a key exists. Answers at once (no promise) when nothing had to be read from
 * storage, as for most requests: each promise waited for costs every request a turn of the microtask queue.
 */
export function createAccessResolver(
  settings: AuthSettings,
  lookup: KeyLookup,
  now: () => number = () => Date.now(),
): (authorization: string | undefined) => RequestAuth | Promise<RequestAuth> {
  const authenticate = createAuthenticator(settings);
  const hasApiToken = Boolean(settings.apiToken);
  const withKey = (
    header: string | undefined,
    open: boolean,
  ): RequestAuth | Promise<RequestAuth> => {
    const bearer = bearerOf(header);
    if (open || typeof bearer !== 'string' || !bearer.startsWith(SECRET_PREFIX))
      return authenticate(header, { open, key: undefined, now: now() });
    return lookup
      .find(bearer)
      .then((key) => authenticate(header, { open, key, now: now() }));
  };
  return (header) => {
    if (hasApiToken) return withKey(header, false);
    const any = lookup.anyKeysKnown();
    return any === undefined
      ? lookup.anyKeys().then((found) => withKey(header, !found))
      : withKey(header, !any);
  };
}
