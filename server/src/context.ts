import type { RequestAuth } from './auth.js';
import type { Services } from './services/services.js';

/** What every procedure gets: the services and the caller's access. */
export interface Context {
  readonly services: Services;
  readonly auth: RequestAuth;
}

/** An auth that allows everything, for in-process callers and tests. */
export const FULL_ACCESS: RequestAuth = {
  canRead: () => true,
  canWrite: () => true,
  token: () => 'none',
};

/** Builds a context without HTTP (tests, scripts). */
export function createContextInner(
  services: Services,
  auth: RequestAuth = FULL_ACCESS,
): Context {
  return { services, auth };
}
