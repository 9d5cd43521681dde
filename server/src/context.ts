import type { RequestAuth } from './auth.js';
import type { Services } from './services/services.js';
import type { AnswerBudget } from './answer-budget.js';
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
  /**
   * The origin of the page of another site that sent the request (its `Origin`, when that is not the
   * server's own), or unset: not such a page (curl, a server, the service's own page, in-process).
   * Under the published view it decides which configs the request may read ({@link publishedContext}).
   */
  readonly pageOrigin?: string | undefined;
  /**
   * Over the published view of a page of another site: whether its origin may read a published name
   * (`auth` is already narrowed to those). Unset: not narrowed by origin.
   */
  readonly originAllows?: ((name: string) => boolean) | undefined;
  /** The answers a `/trpc` batch may still send ({@link AnswerBudget}); unset: one call. */
  readonly answerBudget?: AnswerBudget | undefined;
}

/** What HTTP knows of a request besides its access. */
export interface RequestFacts {
  readonly stillValid?: () => Promise<boolean>;
  readonly requestId?: string | undefined;
  readonly pageOrigin?: string | undefined;
  readonly originAllows?: ((name: string) => boolean) | undefined;
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
    pageOrigin: facts.pageOrigin,
    originAllows: facts.originAllows,
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
 * `auth` narrowed to the configs a page on `origin` may read: `allows` refuses a name, and the name
 * looks missing. Its read view names the origin, so answers kept for reuse are never handed to a page
 * of another site.
 */
export function originBound(
  auth: RequestAuth,
  origin: string,
  allows: (name: string) => boolean,
): RequestAuth {
  return {
    canRead: (name) => allows(name) && auth.canRead(name),
    canWrite: (name) => auth.canWrite(name),
    may: (need) => auth.may(need),
    token: () => auth.token(),
    author: () => auth.author(),
    clientId: () => auth.clientId(),
    readView: () => `${auth.readView()}\u0000origin=${origin}`,
    grant: () => auth.grant(),
  };
}

/**
 * The request's context over the published view (`/published` and `/trpc` `published.*` alike): the
 * same caller and request, the services reading publish records instead of heads
 * (`Services.publishedView`), and the view's own state token. A page of another site
 * (`ctx.pageOrigin`) reads only the configs whose publish records allow its origin
 * (docs/publishing.md#origins, `PublishService.originAllows`): the others look missing, lists leave
 * them out, searches do not look in them. `name` is the one config the call names, if any: then only
 * its record is read. The caller's own rights still apply first (`auth`).
 */
export async function publishedContext(
  ctx: Context,
  name?: string,
): Promise<Context> {
  const view = ctx.services.publishedView;
  if (ctx.services === view) return ctx;
  const origin = ctx.pageOrigin;
  const facts = {
    stillValid: ctx.stillValid,
    requestId: ctx.requestId,
    pageOrigin: origin,
  };
  if (origin === undefined) return createContextInner(view, ctx.auth, facts);
  const allows = await ctx.services.publish.originAllows(origin, name);
  return createContextInner(view, originBound(ctx.auth, origin, allows), {
    ...facts,
    originAllows: allows,
  });
}
