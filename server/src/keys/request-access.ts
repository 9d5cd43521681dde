import { bearerOf, createAuthenticator } from '../auth.js';
import type { AuthSettings, RequestAuth } from '../auth.js';
import { SECRET_PREFIX } from './key-secret.js';
import type { KeyLookup } from './key-lookup.js';

/**
 * The access of a request from its `Authorization` header: configured tokens are checked in memory, a
 * key (`lck_…`) is found through the lookup (kept ≤ 500 ms, so a revoke elsewhere applies within a
 * second), and whether the server is open (no `API_TOKEN`, no key ever stored) is asked of storage at
 * most twice a second until a key exists.
 */
export function createAccessResolver(
  settings: AuthSettings,
  lookup: KeyLookup,
  now: () => number = () => Date.now(),
): (authorization: string | undefined) => Promise<RequestAuth> {
  const authenticate = createAuthenticator(settings);
  const hasApiToken = Boolean(settings.apiToken);
  return async (header) => {
    const open = hasApiToken ? false : !(await lookup.anyKeys());
    const bearer = bearerOf(header);
    const key =
      !open && typeof bearer === 'string' && bearer.startsWith(SECRET_PREFIX)
        ? await lookup.find(bearer)
        : undefined;
    return authenticate(header, { open, key, now: now() });
  };
}
