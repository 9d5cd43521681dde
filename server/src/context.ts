import type { RequestAuth } from './auth.js';
import type { Services } from './services/services.js';
import type { WriteOrigin } from './services/write-conditions.js';

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
  /** The request's id (`X-Request-Id`), kept with the revisions its writes make; absent in-process. */
  readonly requestId?: string | undefined;
}

/** What HTTP knows of a request besides its access. */
export interface RequestFacts {
  readonly stillValid?: () => Promise<boolean>;
  readonly requestId?: string | undefined;
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
  facts: RequestFacts = {},
): Context {
  let token: Promise<string | null> | undefined;
  return {
    services,
    auth,
    requestId: facts.requestId,
    stateToken: () => (token ??= services.configs.stateToken()),
    stillValid: facts.stillValid ?? (() => Promise.resolve(true)),
  };
}

/** Who asks for a write and in which request, as the write's revision records it. */
export function writeOrigin(ctx: Context, op?: WriteOrigin['op']): WriteOrigin {
  return {
    author: ctx.auth.author(),
    ...(ctx.requestId === undefined ? {} : { requestId: ctx.requestId }),
    ...(op === undefined ? {} : { op }),
  };
}

/**
 * The request's context over the published view (`/published`): the same caller and request, the
 * services reading publish records instead of heads (`Services.publishedView`), and the view's own state
 * token.
 */
export function publishedContext(ctx: Context): Context {
  const view = ctx.services.publishedView;
  if (ctx.services === view) return ctx;
  return createContextInner(view, ctx.auth, {
    stillValid: ctx.stillValid,
    requestId: ctx.requestId,
  });
}
