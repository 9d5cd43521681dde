import type { RequestAuth } from './auth.js';
import type { Services } from './services/services.js';

/**
 * What an operation tells the transport about its answer, beyond the answer itself: until when it holds
 * without a write (ms since the epoch). The REST layer uses it to decide whether an answer may be reused.
 */
export interface AnswerHints {
  validUntil: number;
}

/** What every procedure gets: the services, the caller's access, and hints about the answer. */
export interface Context {
  readonly services: Services;
  readonly auth: RequestAuth;
  readonly answer: AnswerHints;
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
  return { services, auth, answer: { validUntil: Infinity } };
}
