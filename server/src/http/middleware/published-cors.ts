/**
 * CORS of `/published` (docs/publishing.md#origins): a published config is readable from the pages of
 * the site origins its publish record names (`null`: any origin), and from no other page.
 *
 * - A route that names one config (`GET /published/configs/:name`) answers a page on an allowed origin
 *   with the CORS headers, and any other page without them (and, since the config is not readable to it,
 *   as a missing name): the browser hides the answer, so the page learns neither the config nor whether
 *   it exists. A preflight is answered the same way.
 * - Routes across configs (`/published/configs`, `/published/search`, `/published/query`,
 *   `/published/cherry-pick`) answer every page, but only with the configs whose origins allow the
 *   page's `Origin`: a page of a site nothing allows gets an empty list.
 * - A request without `Origin` (curl, servers, a same-origin read of the server's own page) is not a
 *   cross-site page: it reads every published config, as the read rules allow. CORS keeps other sites'
 *   pages out; it does not stop a client that is not a browser.
 *
 * Answers vary by `Origin` (`published-caching.ts`), so a shared cache keeps one copy per site.
 *
 * Which configs a page may read is decided once, for REST and `/trpc` alike, by `publishedContext`
 * (`context.ts`) from the request's {@link pageOrigin}; this module adds what only HTTP has: the headers.
 */
import type { Context as HonoContext, MiddlewareHandler } from 'hono';
import { publishedContext } from '../../context.js';
import type { Context } from '../../context.js';
import { rawPath, requestUrl } from '../routes/path-segments.js';

/** Whether the request's cross-site page may have the answer (unset: not a cross-site request). */
const ALLOWED = 'linkconfig.publishedOriginAllowed';

declare module 'hono' {
  interface ContextVariableMap {
    [ALLOWED]: boolean | undefined;
  }
}

/** Headers a page may read from a published answer. */
const EXPOSED = 'ETag, X-Request-Id, Retry-After';
/** Methods of `/published` a page may use. */
const METHODS = 'GET, HEAD, POST, OPTIONS';
/** Seconds a browser may keep a preflight's answer. */
const PREFLIGHT_MAX_AGE = '600';

/** The raw name segment of `/published/configs/:name`, or `undefined` for any other path. */
const ONE_CONFIG = /^\/published\/configs\/([^/]+)$/;

/** The config a `/published` path names, decoded (a segment that does not decode is taken as it is). */
export function publishedConfigName(pathname: string): string | undefined {
  const raw = ONE_CONFIG.exec(pathname)?.[1];
  if (raw === undefined) return undefined;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/**
 * The origin of the page of another site a request comes from (`Context.pageOrigin`): its `Origin`,
 * unless there is none or it is the server's own (the service's own page is not another site).
 */
export function pageOrigin(c: HonoContext): string | undefined {
  const origin = c.req.header('origin');
  if (origin === undefined || origin === requestUrl(c.req.url).origin) {
    return undefined;
  }
  return origin;
}

/** What {@link publishedOrigins} needs. */
export interface PublishedOriginsDeps {
  /** Request headers a preflight may ask for (unset: whatever it asks for). */
  readonly allowHeaders?: readonly string[] | undefined;
}

/** The two halves of `/published` CORS: the request's published view, then the headers. */
export interface PublishedOrigins {
  /**
   * The context of a `/published` request: `ctx` over the published view (`publishedContext`, the one
   * rule: narrowed to the configs its page's origin may read when it comes from another site). Called
   * once per request, before the routes; the operations then run on it as it is.
   */
  context(c: HonoContext, ctx: Context): Promise<Context>;
  /** Answers preflights and adds the CORS headers of `/published` (mounted where the CORS layer is). */
  readonly cors: MiddlewareHandler;
}

/** CORS of `/published`, bound to the publish records' origins. */
export function publishedOrigins(deps: PublishedOriginsDeps): PublishedOrigins {
  return {
    context: async (c, ctx) => {
      if (ctx.pageOrigin === undefined) return publishedContext(ctx);
      const name = publishedConfigName(rawPath(c.req.url));
      const view = await publishedContext(ctx, name);
      c.set(ALLOWED, name === undefined || view.originAllows?.(name) === true);
      return view;
    },
    cors: async (c, next) => {
      const allowed = c.get(ALLOWED);
      const origin = c.req.header('origin');
      if (allowed === undefined || origin === undefined) return next();
      if (
        c.req.method === 'OPTIONS' &&
        c.req.header('access-control-request-method') !== undefined
      ) {
        return preflight(c, allowed ? origin : undefined, deps.allowHeaders);
      }
      await next();
      const headers = c.res.headers;
      appendVary(headers, 'Origin');
      if (!allowed) return;
      headers.set('Access-Control-Allow-Origin', origin);
      headers.set('Access-Control-Expose-Headers', EXPOSED);
    },
  };
}

/** A preflight's answer: the allow headers only for an allowed page (`origin` unset: refused). */
function preflight(
  c: HonoContext,
  origin: string | undefined,
  allowHeaders: readonly string[] | undefined,
): Response {
  const headers = new Headers({
    Vary: 'Origin, Access-Control-Request-Headers',
  });
  if (origin !== undefined) {
    headers.set('Access-Control-Allow-Origin', origin);
    headers.set('Access-Control-Allow-Methods', METHODS);
    const asked = c.req.header('access-control-request-headers');
    const granted =
      allowHeaders === undefined || allowHeaders.length === 0
        ? asked
        : allowHeaders.join(', ');
    if (granted !== undefined && granted !== '') {
      headers.set('Access-Control-Allow-Headers', granted);
    }
    headers.set('Access-Control-Max-Age', PREFLIGHT_MAX_AGE);
  }
  return new Response(null, { status: 204, headers });
}

/** Adds `value` to the `Vary` header unless it is already named there. */
function appendVary(headers: Headers, value: string): void {
  const vary = headers.get('vary');
  if (vary === null || vary === '') {
    headers.set('Vary', value);
    return;
  }
  const named = vary.split(',').map((v) => v.trim().toLowerCase());
  if (!named.includes(value.toLowerCase()) && !named.includes('*')) {
    headers.set('Vary', `${vary}, ${value}`);
  }
}
