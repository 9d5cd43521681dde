import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { Hono } from 'hono';
import type { Context as HonoContext } from 'hono';
import { cors } from 'hono/cors';
import type { Logger } from 'pino';
import { createAuthenticator } from '../auth.js';
import type { AuthSettings } from '../auth.js';
import type { Context } from '../context.js';
import { appRouter } from '../routers/app-router.js';
import type { Services } from '../services/services.js';
import { DOCS_INIT_SCRIPT, docsPage, swaggerUiDir } from './docs-page.js';
import { toErrorAnswer } from './error-response.js';
import { HttpError } from './http-error.js';
import { readJsonBody } from './json-body.js';
import type { BodyLimits } from './json-body.js';
import { mountEventsRoute } from './events-route.js';
import { buildOpenApiDocument } from './openapi.js';
import { mountRestRoutes } from './rest-routes.js';

/** Options of {@link createApp}. */
export interface AppOptions {
  readonly services: Services;
  readonly logger: Logger;
  readonly auth?: AuthSettings;
  /** Largest request body in bytes (default 10 MiB). */
  readonly bodyLimit?: number;
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
  /** Compress JSON answers for clients that accept gzip or br (`COMPRESSION`, default true). */
  readonly compression?: boolean;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The HTTP application: the REST contract, `/trpc`, `/openapi.json`, `/docs`, `/healthz` and the web page,
 * with CORS, access logs and `{ error }` bodies for every failure. No I/O happens here beyond the request.
 */
export function createApp(options: AppOptions): Hono {
  const app = new Hono();
  const log = options.logger;
  const limits: BodyLimits = {
    maxBytes: options.bodyLimit ?? 10 * 1024 * 1024,
    maxDepth: 256,
  };
  const authenticate = createAuthenticator(options.auth ?? {});
  const context = (c: HonoContext): Context => ({
    services: options.services,
    auth: authenticate(c.req.header('authorization')),
    answer: { validUntil: Infinity },
  });
  const errorResponse = (error: unknown): Response => {
    const answer = toErrorAnswer(error, log);
    return new Response(JSON.stringify({ error: answer.message }), {
      status: answer.status,
      headers: { 'Content-Type': JSON_TYPE, ...answer.headers },
    });
  };

  app.use('*', async (c, next) => {
    const started = performance.now();
    await next();
    if (log.isLevelEnabled('info')) {
      log.info(
        {
          method: c.req.method,
          path: c.req.path,
          status: c.res.status,
          ms: Math.round((performance.now() - started) * 10) / 10,
        },
        'request',
      );
    }
  });

  const origins = options.corsOrigins ?? ['*'];
  const corsHeaders = cors({
    origin: origins.includes('*') ? '*' : [...origins],
    allowMethods: ['GET', 'PUT', 'DELETE', 'POST', 'OPTIONS'],
    // Empty: Hono answers a preflight with the headers it asked for.
    allowHeaders: [...(options.corsHeaders ?? [])],
    exposeHeaders: ['ETag', 'Retry-After'],
    maxAge: 600,
  });
  // CORS applies to requests that carry an Origin (browsers always send it cross-origin); other clients
  // skip it, which keeps responses on @hono/node-server's fast path (adding headers afterwards leaves it).
  app.use('*', (c, next) =>
    c.req.header('origin') === undefined ? next() : corsHeaders(c, next),
  );

  app.get('/healthz', async (c) => {
    try {
      await options.healthCheck?.();
      return c.json({ status: 'ok' });
    } catch (error) {
      log.error({ err: error }, 'health check failed');
      return c.json({ error: 'storage is not available' }, 503);
    }
  });

  const openapi = JSON.stringify(buildOpenApiDocument());
  app.get(
    '/openapi.json',
    () => new Response(openapi, { headers: { 'Content-Type': JSON_TYPE } }),
  );
  app.get('/docs', (c) => c.html(docsPage()));
  app.get(
    '/docs/init.js',
    () =>
      new Response(DOCS_INIT_SCRIPT, {
        headers: { 'Content-Type': 'text/javascript; charset=utf-8' },
      }),
  );
  app.get(
    '/docs/assets/*',
    serveStatic({
      root: swaggerUiDir(),
      rewriteRequestPath: (p) => p.replace(/^\/docs\/assets/, ''),
    }),
  );

  mountRestRoutes(app, {
    context,
    limits,
    compression: options.compression ?? true,
  });
  mountEventsRoute(app, { context });

  app.all('/trpc/*', async (c) => {
    let req = c.req.raw;
    if (req.method === 'POST') {
      const body = await readJsonBody(req, limits);
      req = new Request(req.url, {
        method: 'POST',
        headers: req.headers,
        body: JSON.stringify(body),
      });
    }
    return fetchRequestHandler({
      endpoint: '/trpc',
      req,
      router: appRouter,
      createContext: () => context(c),
      onError: ({ error }) => {
        if (error.code === 'INTERNAL_SERVER_ERROR')
          log.error({ err: error.cause ?? error }, 'trpc call failed');
      },
    });
  });

  const appDir = options.appDir;
  if (appDir !== undefined && existsSync(join(appDir, 'index.html'))) {
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

  app.notFound((c) =>
    errorResponse(
      new HttpError(404, `no route for ${c.req.method} ${c.req.path}`),
    ),
  );
  app.onError((error) => errorResponse(error));
  return app;
}
