import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import type { Context as HonoContext, Hono } from 'hono';
import type { Logger } from 'pino';
import { LIMITS } from '@linkconfig/shared';
import { AnswerBudget } from '../../answer-budget.js';
import type { Context } from '../../context.js';
import { appRouter } from '../../routers/app-router.js';
import { nodeBindings } from '../client-address.js';
import { statusHeaders } from '../http-error.js';
import { readJsonBody } from '../middleware/json-body.js';
import {
  refuseLargeInlineInputs,
  trpcBodyKind,
} from '../middleware/body-limits.js';
import type { BodyKind, BodyLimitSet } from '../middleware/body-limits.js';
import { bodyProgress } from '../middleware/body-pace.js';
import { requestLogger } from '../middleware/request-context.js';
import { callsAllowed, trpcCalls } from '../trpc-calls.js';

/** What the `/trpc` route needs from the app. */
export interface TrpcRouteDeps {
  readonly context: (c: HonoContext) => Context;
  readonly logger: Logger;
  readonly limits: BodyLimitSet;
  readonly withBodyPermit: (
    c: HonoContext,
    kind: BodyKind,
    answer: () => Promise<Response>,
  ) => Promise<Response>;
}

/**
 * `/trpc/*` for `@trpc/client`: access first, as on REST. When the caller may make none of the calls,
 * tRPC refuses each of them before reading its input, so the body is neither waited for nor read; the
 * body's limits and permits are those of the calls the caller may make, whatever else the batch names.
 */
export function mountTrpcRoute(app: Hono, deps: TrpcRouteDeps): void {
  app.all('/trpc/*', (c) => {
    if (c.req.method !== 'POST') return trpcAnswer(c, deps, undefined);
    const calls = callsAllowed(trpcCalls(c.req.url), deps.context(c).auth);
    if (calls.length === 0) return trpcAnswer(c, deps, null);
    const kind = trpcBodyKind(calls);
    return deps.withBodyPermit(c, kind, async () => {
      const { value } = await readJsonBody(c.req.raw, deps.limits[kind], {
        progress: bodyProgress(c),
        incoming: nodeBindings(c)?.incoming,
      });
      // A batch read under the stored limit holds the other calls' inputs to the inline one.
      if (kind === 'stored')
        refuseLargeInlineInputs(trpcCalls(c.req.url), value, deps.limits);
      return trpcAnswer(c, deps, JSON.stringify(value));
    });
  });
}

/**
 * Hands the request to tRPC: as it came (`undefined`: not a POST), or with the JSON body read and
 * checked here (`null`: with none, the body left unread).
 */
async function trpcAnswer(
  c: HonoContext,
  deps: TrpcRouteDeps,
  body: string | null | undefined,
): Promise<Response> {
  let req = c.req.raw;
  if (body !== undefined) {
    // The body handed on is plain JSON (or none): the original encoding and length no longer
    // describe it.
    const headers = new Headers(req.headers);
    headers.delete('content-encoding');
    headers.delete('content-length');
    req = new Request(req.url, { method: 'POST', headers, body });
  }
  // A batch is one request: its answers share one budget, as large as a stored config may be, twice.
  const batch = trpcCalls(req.url).length > 1;
  const response = await fetchRequestHandler({
    endpoint: '/trpc',
    req,
    router: appRouter,
    maxBatchSize: LIMITS.trpcBatchMax,
    createContext: () => {
      const ctx = deps.context(c);
      return batch
        ? {
            ...ctx,
            answerBudget: new AnswerBudget(2 * deps.limits.stored.maxBytes),
          }
        : ctx;
    },
    // A refused caller is told how to authenticate, a busy server when to come back, as on REST.
    responseMeta: ({ errors }) => {
      const headers: Record<string, string> = {};
      for (const e of errors)
        Object.assign(headers, statusHeaders(getHTTPStatusCodeFromError(e)));
      return Object.keys(headers).length === 0
        ? {}
        : { headers: new Headers(headers) };
    },
    onError: ({ error }) => {
      if (error.code === 'INTERNAL_SERVER_ERROR')
        requestLogger(c, deps.logger).error(
          { err: error.cause ?? error },
          'trpc call failed',
        );
    },
  });
  return withJsonType(response);
}

/**
 * tRPC refuses a request it cannot even split into calls (too many calls, mixed procedure types, a path
 * it cannot decode) with its usual JSON error but no type, so the answer would go out as text (`Response`'s
 * default for a string). Its clients read the body as JSON whatever the type; others are told what it is.
 */
function withJsonType(response: Response): Response {
  if (response.ok) return response;
  const type = response.headers.get('content-type');
  if (type === null || type.startsWith('text/plain'))
    response.headers.set('content-type', 'application/json');
  return response;
}
