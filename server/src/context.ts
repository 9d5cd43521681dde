import type { RequestAuth } from './auth.js';
import type { Services } from './services/services.js';

/**
 * What every procedure gets, built once per request: the services, the caller's access (its header
 * authenticated once), and the stored state's change token (read at most once).
 */
export interface Context {
  readonly services: Services;
  readonly auth: RequestAuth;
  /**
   * The token of the stored state as this request saw it, read on first use and then kept, or `null`
   * when the repository cannot tell (nothing derived from earlier reads may then be reused).
   */
  readonly stateToken: () => Promise<string | null>;
  /**
   * Whether the caller's access still holds (its key not revoked or expired since), for streams that
   * outlive the request's first check. Always `true` for in-process callers.
   */
  readonly stillValid: () => Promise<boolean>;
}

/** An auth that allows everything, for in-process callers and tests. */
export const FULL_ACCESS: RequestAuth = {
  canRead: () => true,
  canWrite: () => true,
  may: () => true,
  token: () => 'none',
  author: () => null,
  clientId: () => null,
  readView: () => '*',
  grant: () => ({ scope: 'admin', configs: ['*'], anonymousRead: ['*'] }),
};

/** Builds a request's context (HTTP builds one per request; tests and scripts call it directly). */
export function createContextInner(
  services: Services,
  auth: RequestAuth = FULL_ACCESS,
  stillValid: () => Promise<boolean> = () => Promise.resolve(true),
): Context {
  let token: Promise<string | null> | undefined;
  return {
    services,
    auth,
    stateToken: () => (token ??= services.configs.stateToken()),
    stillValid,
  };
}
