import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import type { Context as HonoContext } from 'hono';
import { cors } from 'hono/cors';
import type { Logger } from 'pino';
import { servesPage } from '../app-dir.js';
import { publicReader } from '../auth.js';
import type { AuthSettings, PublishedRead } from '../auth.js';
import { createContextInner } from '../context.js';
import { createAccessResolver } from '../keys/request-access.js';
import type { Context } from '../context.js';
import type { Services } from '../services/services.js';
import { accessDenied } from '../access-check.js';
import { clientAddress } from './client-address.js';
import { mountDocsRoutes } from './routes/docs-page.js';
import { mountTrpcRoute } from './routes/trpc-route.js';
import { toErrorAnswer } from './error-response.js';
import { HttpError } from './http-error.js';
import { bodyLimitSet } from './middleware/body-limits.js';
import type { BodyKind } from './middleware/body-limits.js';
import { mountEventsRoute } from './routes/events-route.js';
import { observeAnswer } from './metrics.js';
import type { Metrics } from './metrics.js';
import { mountMetrics } from './routes/metrics-route.js';
import { buildOpenApiDocument } from './routes/openapi.js';
import { clientKey, mountRateLimits } from './middleware/rate-limit.js';
import { DEFAULT_BODY_MIN_RATE } from '../config/limits.js';
import type { RateLimitOptions } from './middleware/rate-limit.js';
import {
  answerHeaders,
  requestContext,
  requestLogger,
} from './middleware/request-context.js';
import { mountRestRoutes } from './routes/rest-routes.js';
import { isPublishedPath } from './routes/route-table.js';
import { publishedCaching } from './routes/published-caching.js';
import { pageOrigin, publishedOrigins } from './middleware/published-cors.js';
import { mountEmbedRoute } from './routes/embed-route.js';
import type { PublishedLifetimes } from './routes/published-caching.js';
import { PUBLISHED_CACHE_DEFAULTS } from '../config/publish-settings.js';
import {
  bodyPermitsByKind,
  withBodyPermit,
} from './middleware/body-permits.js';
import {
  addSecurityHeaders,
  refuseSourceMaps,
} from './middleware/security-headers.js';

/** Options of {@link createApp}. */
export interface AppOptions {
  readonly services: Services;
  readonly logger: Logger;
  readonly auth?: AuthSettings;
  /** Largest body that stores a config, in bytes (default 10 MiB). */
  readonly bodyLimit?: number;
  /** Largest other request body (inline configs), in bytes (default 1 MiB; never above `bodyLimit`). */
  readonly inlineBodyLimit?: number;
  /**
   * Slowest accepted request body, in bytes per second after its first second (`BODY_MIN_RATE`, default
   * 64 KiB; 0: no floor): a slower one is cut with 408.
   */
  readonly bodyMinRate?: number;
  /** Allowed CORS origins; `['*']` (the default) allows any. */
  readonly corsOrigins?: readonly string[];
  /**
   * Request headers a cross-origin caller may send; unset (the default), whatever the browser's
   * preflight asks for is allowed (origins are still checked).
   */
  readonly corsHeaders?: readonly string[];
  /** Folder of the built web page served at `/` (optional). */
  readonly appDir?: string;
  /** Checks storage for `/healthz`. */
  readonly healthCheck?: () => Promise<unknown>;
  /** Fields added to `/healthz`'s answer (a worker of `WORKERS` > 1 names its pid: `worker`). */
  readonly healthDetails?: Readonly<Record<string, string | number>>;
  /** Compress JSON answers for clients that accept gzip or br (`COMPRESSION`, default true). */
  readonly compression?: boolean;
  /** Request metrics and `GET /metrics` (absent: no metrics). */
  readonly metrics?: Metrics | undefined;
  /** Bearer token that alone opens `GET /metrics` (absent: the read rules apply). */
  readonly metricsToken?: string | undefined;
  /** One access log line per request (default true). */
  readonly accessLog?: boolean;
  /** Per-client budgets for writes, expensive reads and `/published` (absent: no limits). */
  readonly rateLimit?:
    | Pick<
        RateLimitOptions,
        'reads' | 'writes' | 'published' | 'maxClients' | 'now'
      >
    | undefined;
  /** Proxies trusted to report the client's address in `X-Forwarded-For` (default 0: none). */
  readonly trustProxy?: number;
  /** Who may read `/published` (`PUBLISHED_READ`, default `public`). */
  readonly publishedRead?: PublishedRead;
  /** Lifetimes of `/published` answers (`PUBLISHED_MAX_AGE`, …; defaults in `config/publish-settings.ts`). */
  readonly publishedLifetimes?: PublishedLifetimes;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** Where a request's {@link Context} is kept on the Hono context. */
const CONTEXT = 'linkconfig.context';

declare module 'hono' {
  interface ContextVariableMap {
    [CONTEXT]: Context | undefined;
  }
}

/**
 * The HTTP application: the REST contract, `/trpc`, `/openapi.json`, `/docs`, `/healthz` and the web page,
 * with CORS, access logs and `{ error }` bodies for every failure. No I/O happens here beyond the request.
 */
export function createApp(options: AppOptions): Hono {
  const app = new Hono();
  const log = options.logger;
  const limits = bodyLimitSet({
    ...options,
    bodyMinRate: options.bodyMinRate ?? DEFAULT_BODY_MIN_RATE,
  });
  const resolveAccess = createAccessResolver(
    options.auth ?? {},
    options.services.keyLookup,
    options.services.now,
  );
  // One context per request, built before any route runs and kept on the request: the header is
  // authenticated once (a key found once) and the change token read once, whoever asks (rate limits,
  // REST, `/trpc`, `/events`, `/metrics`).
  const context = (c: HonoContext): Context => {
    const ctx = c.get(CONTEXT);
    if (ctx === undefined) throw new Error('no request context');
    return ctx;
  };
  const errorResponse = (error: unknown, c: HonoContext): Response => {
    // Logged with the request's id, which the client has in its X-Request-Id header.
    const answer = toErrorAnswer(error, requestLogger(c, log));
    // Added to the answer's own record, not spread into a new one (slow in V8, see `entryResponse`).
    const headers = answerHeaders(c);
    headers['Content-Type'] = JSON_TYPE;
    Object.assign(headers, answer.headers);
    return new Response(JSON.stringify({ error: answer.message }), {
      status: answer.status,
      headers,
    });
  };

  const trustProxy = options.trustProxy ?? 0;
  const idAndLog = requestContext({
    logger: log,
    accessLog: options.accessLog ?? true,
    trustProxy,
  });
  const metrics = options.metrics;
  const published = publishedOrigins({ allowHeaders: options.corsHeaders });
  const publicPublished = (options.publishedRead ?? 'public') === 'public';
  const origins = options.corsOrigins ?? ['*'];
  const corsHeaders = cors({
    origin: origins.includes('*') ? '*' : [...origins],
    allowMethods: ['GET', 'PUT', 'PATCH', 'DELETE', 'POST', 'OPTIONS'],
    // Empty: Hono answers a preflight with the headers it asked for.
    allowHeaders: [...(options.corsHeaders ?? [])],
    exposeHeaders: ['ETag', 'X-Request-Id', 'Retry-After'],
    maxAge: 600,
  });
  const isMetricsRead = (c: HonoContext) =>
    c.req.path === '/metrics' &&
    (c.req.method === 'GET' || c.req.method === 'HEAD');
  // One layer of Hono's chain for the request id and access line, the caller's access and context, the
  // request metrics, the security headers and CORS (each layer costs an async dispatch per request).
  // What fails in it is answered here as the chain would answer it (`onError`), so the access line
  // still sees an answer.
  const access = async (c: HonoContext, next: () => Promise<void>) => {
    try {
      const header = c.req.header('authorization');
      const asked = resolveAccess(header);
      // Most requests are authorized without waiting (`createAccessResolver`): no promise, no turn lost.
      const resolved = asked instanceof Promise ? await asked : asked;
      const underPublished = isPublishedPath(c.req.path);
      // `/published` under PUBLISHED_READ=public: anyone reads it, whatever the header says.
      const auth =
        underPublished && publicPublished ? publicReader(resolved) : resolved;
      // A stream asks again later: the same header must still give the same kind of access to the same
      // names (a stream opened while the server was open loses its reads once keys exist).
      const stillValid = async () => {
        const now = await resolveAccess(header);
        return (
          now.token() === resolved.token() &&
          now.readView() === resolved.readView()
        );
      };
      const ctx = createContextInner(options.services, auth, {
        stillValid,
        requestId: c.get('requestId'),
        pageOrigin: pageOrigin(c),
      });
      // `/published` reads the published view; a page of another site only the configs published for
      // its origin (`publishedContext`, which `/trpc` `published.*` apply per call).
      c.set(CONTEXT, underPublished ? await published.context(c, ctx) : ctx);
    } catch (error) {
      answerError(c, error);
      return;
    }
    const started = metrics === undefined ? 0 : performance.now();
    // CORS applies to requests that carry an Origin (browsers always send it cross-origin); other
    // clients skip it, which keeps responses on @hono/node-server's fast path (adding headers afterwards
    // leaves it). `/published` answers the origins of its publish records instead (`published.cors`),
    // and `GET /metrics`, mounted before CORS was one layer of its own, never had it.
    const origin = c.req.header('origin');
    if (
      origin === undefined ||
      isPublishedPath(c.req.path) ||
      (metrics !== undefined && isMetricsRead(c))
    ) {
      await next();
    } else {
      await withCors(c, next);
    }
    try {
      if (metrics !== undefined) observeAnswer(metrics, c, started);
      addSecurityHeaders(c);
    } catch (error) {
      answerError(c, error);
    }
  };
  /** What a layer throws, answered as Hono's chain answers it. */
  const answerError = (c: HonoContext, error: unknown): void => {
    if (!(error instanceof Error)) throw error;
    c.error = error;
    c.res = errorResponse(error, c);
  };
  /** Hono's CORS, its answer (a preflight's) taken as the chain takes a layer's. */
  const withCors = async (c: HonoContext, next: () => Promise<void>) => {
    try {
      const answer = await corsHeaders(c, next);
      if (answer !== undefined && !c.finalized) c.res = answer;
    } catch (error) {
      answerError(c, error);
    }
  };
  app.use('*', (c, next) => idAndLog(c, () => access(c, next)));
  if (options.metrics !== undefined) {
    mountMetrics(app, {
      metrics: options.metrics,
      metricsToken: options.metricsToken,
      checkRead: (c) => {
        const denied = accessDenied(context(c).auth, 'read');
        if (denied !== null) throw HttpError.of(denied);
      },
    });
  }

  app.use('/published/*', published.cors);

  // After CORS, so that preflights are never limited and a 429 carries the CORS headers a page needs.
  if (options.rateLimit !== undefined) {
    mountRateLimits(app, {
      ...options.rateLimit,
      clientKey: (c) =>
        clientKey(context(c).auth.clientId(), clientAddress(c, trustProxy)),
      ...(options.metrics === undefined ? {} : { metrics: options.metrics }),
    });
  }

  app.get('/healthz', async (c) => {
    try {
      await options.healthCheck?.();
      return c.json({ status: 'ok', ...options.healthDetails });
    } catch (error) {
      requestLogger(c, log).error({ err: error }, 'health check failed');
      return c.json({ error: 'storage is not available' }, 503);
    }
  });

  mountDocsRoutes(
    app,
    JSON.stringify(
      buildOpenApiDocument(options.auth, undefined, options.publishedRead),
    ),
  );

  // A few requests with large bodies of each kind are answered at a time, one per client; more wait (see
  // body-permits.ts). Every route checks the caller's access before it asks for a permit.
  const permits = bodyPermitsByKind();
  const withPermit = (
    c: HonoContext,
    kind: BodyKind,
    answer: () => Promise<Response>,
  ): Promise<Response> =>
    withBodyPermit(
      permits[kind],
      {
        contentLength: c.req.header('content-length'),
        client: clientAddress(c, trustProxy),
      },
      answer,
    );
  mountEmbedRoute(app);
  mountRestRoutes(app, {
    context,
    limits,
    compression: options.compression ?? true,
    withBodyPermit: withPermit,
    responses: options.services.responses,
    published: publishedCaching(
      options.publishedRead ?? 'public',
      options.publishedLifetimes ?? PUBLISHED_CACHE_DEFAULTS,
    ),
  });
  mountEventsRoute(app, { context });

  mountTrpcRoute(app, {
    context,
    logger: log,
    limits,
    withBodyPermit: withPermit,
  });

  const appDir = options.appDir;
  if (servesPage(appDir)) {
    app.use('/*', refuseSourceMaps);
    app.get('/*', serveStatic({ root: appDir }));
    app.get('/', serveStatic({ root: appDir, path: 'index.html' }));
  } else {
    app.get('/', (c) =>
      c.json({
        service: 'linkconfig',
        docs: '/docs',
        openapi: '/openapi.json',
      }),
    );
  }

  // Browsers ask for an icon on every page (the docs page names none): an empty answer rather than a
  // 404 in the console and the logs. A favicon.ico in the page build, if any, is served above instead.
  app.get('/favicon.ico', () => new Response(null, { status: 204 }));

  app.notFound((c) =>
    errorResponse(
      new HttpError(404, `no route for ${c.req.method} ${c.req.path}`),
      c,
    ),
  );
  app.onError((error, c) => errorResponse(error, c));
  return app;
}
