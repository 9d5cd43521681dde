import type { Context as HonoContext, Hono } from 'hono';
import type { PutConfigInput } from '@linkconfig/shared';
import type { Context } from '../context.js';
import { accessDenied, createCallerFactory } from '../trpc.js';
import { appRouter } from '../routers/app-router.js';
import { configNameFromUrl } from './config-name.js';
import { HttpError } from './http-error.js';
import { readJsonBody } from './json-body.js';
import { receivedJson } from '../received-json.js';
import { ResponseCache } from './response-cache.js';
import type { CachedBody } from './response-cache.js';
import type { BodyLimits } from './json-body.js';
import { isPlainObject } from '@linkconfig/shared';

/** What the REST routes need from the app. */
export interface RestDeps {
  /** The per-request tRPC context (services and the caller's access). */
  readonly context: (c: HonoContext) => Context;
  readonly limits: BodyLimits;
}

const createCaller = createCallerFactory(appRouter);

const JSON_HEADERS = { 'Content-Type': 'application/json; charset=utf-8' };

const json = (
  body: string,
  status = 200,
  headers: Record<string, string> = {},
): Response =>
  new Response(body, { status, headers: { ...JSON_HEADERS, ...headers } });

/**
 * The 7 REST routes of the contract (service contract §4.1). Each is a thin adapter that calls the one
 * procedure definition through `createCaller`, so REST and `/trpc` share inputs, outputs, auth and rules.
 * The adapter owns only what HTTP owns: reading the body (limits, media type), decoding the path segment,
 * status codes, caching headers.
 */
export function mountRestRoutes(app: Hono, deps: RestDeps): void {
  const caller = (c: HonoContext) => createCaller(deps.context(c));

  const cache = new ResponseCache(32 * 1024 * 1024);
  /** Checks read access, then serves `key` from the cache or from `produce`. */
  const cachedRead = async (
    c: HonoContext,
    key: string,
    produce: (ctx: Context) => Promise<CachedBody>,
  ): Promise<CachedBody> => {
    const ctx = deps.context(c);
    const denied = accessDenied(ctx.auth, 'read');
    if (denied !== null) throw denied;
    const token = await ctx.services.configs.stateToken();
    return cache.serve(key, token, () => produce(ctx));
  };
  /** The raw path and query: the cache key of a GET. */
  const rawTarget = (c: HonoContext): string => {
    const url = c.req.url;
    return url.slice(url.indexOf('/', url.indexOf('//') + 2));
  };

  app.get('/configs', async (c) => {
    const { body } = await cachedRead(c, 'GET /configs', async (ctx) => ({
      body: JSON.stringify(await createCaller(ctx).configs.list()),
    }));
    return json(body);
  });

  app.get('/configs/:name', async (c) => {
    const name = configNameFromUrl(c.req.url);
    const { body, etag } = await cachedRead(
      c,
      `GET ${rawTarget(c)}`,
      async (ctx) => {
        const entry = await createCaller(ctx).configs.get({ name });
        return ctx.services.configs.serialized(name, entry);
      },
    );
    const headers: Record<string, string> = { 'Cache-Control': 'no-cache' };
    if (etag !== undefined) {
      headers['ETag'] = etag;
      const match = c.req.header('if-none-match');
      if (match !== undefined && etagMatches(match, etag)) {
        return new Response(null, { status: 304, headers });
      }
    }
    return json(body, 200, headers);
  });

  app.put('/configs/:name', async (c) => {
    const name = configNameFromUrl(c.req.url);
    const ctx = deps.context(c);
    const denied = accessDenied(ctx.auth, 'write');
    if (denied !== null) throw denied;
    const config = await readJsonBody(c.req.raw, deps.limits);
    if (!isPlainObject(config)) {
      throw new HttpError(
        400,
        'the body must be a JSON object: the config itself',
      );
    }
    // Only "is an object" is known here; the service validates the config by the shared rules.
    // The precondition headers go to the procedure as they are; it parses and checks them.
    const { etag } = await createCaller(ctx).configs.put({
      name,
      config: config as PutConfigInput['config'],
      ifMatch: c.req.header('if-match'),
      ifNoneMatch: c.req.header('if-none-match') as '*' | undefined,
    });
    return new Response(null, { status: 204, headers: { ETag: etag } });
  });

  app.delete('/configs/:name', async (c) => {
    const name = configNameFromUrl(c.req.url);
    await caller(c).configs.remove({
      name,
      ifMatch: c.req.header('if-match'),
    });
    return new Response(null, { status: 204 });
  });

  app.get('/search', async (c) => {
    const { body } = await cachedRead(c, `GET ${rawTarget(c)}`, async (ctx) => {
      const q = c.req.query();
      const result = await createCaller(ctx).search.links({
        tag: q['tag'],
        q: q['q'],
        regex: q['regex'],
        fields: q['fields'],
        config: q['config'],
        limit: q['limit'],
      });
      return { body: JSON.stringify(result) };
    });
    return json(body);
  });

  /**
   * Small bodies (names and an expression) are cache keys; big inline configs are not kept, nor anything
   * that can reach the clock or chance (`:time:`, `*shuffle*`, search patterns with an age, macros that
   * might hold those) or custom protocol handlers.
   */
  const postKey = (
    c: HonoContext,
    path: string,
    body: unknown,
  ): string | null => {
    const text = receivedJson(body);
    if (text === undefined || text.length > 8192) return null;
    if (/[@/]|time|shuffle/.test(text)) return null;
    if (deps.context(c).services.expressions.hasCustomHandlers) return null;
    return `POST ${path} ${text}`;
  };

  type Caller = ReturnType<typeof createCaller>;
  /**
   * A POST route over one expression procedure: body read after the access check, then the answer,
   * reused while the stored state is the same when the body allows it ({@link postKey}).
   */
  const expressionRoute = (
    path: '/cherry-pick' | '/query',
    call: (caller: Caller, body: Record<string, unknown>) => Promise<unknown>,
  ) =>
    app.post(path, async (c) => {
      const body = await objectBody(c, deps);
      const run = async (ctx: Context): Promise<CachedBody> => ({
        body: JSON.stringify(await call(createCaller(ctx), body)),
      });
      const key = postKey(c, path, body);
      const result =
        key === null
          ? await run(deps.context(c))
          : await cachedRead(c, key, run);
      return json(result.body);
    });
  // The procedures validate the bodies with their zod inputs.
  expressionRoute('/cherry-pick', (api, body) =>
    api.expressions.cherryPick(
      body as Parameters<Caller['expressions']['cherryPick']>[0],
    ),
  );
  expressionRoute('/query', (api, body) =>
    api.expressions.query(
      body as Parameters<Caller['expressions']['query']>[0],
    ),
  );

  const allow = (methods: string) => () => {
    throw new HttpError(405, `method not allowed; use ${methods}`, {
      Allow: methods,
    });
  };
  app.all('/configs', allow('GET'));
  app.all('/configs/:name', allow('GET, PUT, DELETE'));
  app.all('/search', allow('GET'));
  app.all('/cherry-pick', allow('POST'));
  app.all('/query', allow('POST'));
}

async function objectBody(
  c: HonoContext,
  deps: RestDeps,
): Promise<Record<string, unknown>> {
  // Authorization first: an unauthorized caller gets 401, and costs no body reading.
  const denied = accessDenied(deps.context(c).auth, 'read');
  if (denied !== null) throw denied;
  const limits = deps.limits;
  const body = await readJsonBody(c.req.raw, limits);
  if (!isPlainObject(body))
    throw new HttpError(400, 'the body must be a JSON object');
  return body;
}

/** `If-None-Match` holds the tag (weak comparison, lists and `*` allowed). */
function etagMatches(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  return header
    .split(',')
    .some((candidate) => candidate.trim().replace(/^W\//, '') === etag);
}
