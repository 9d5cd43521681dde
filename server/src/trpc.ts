import { initTRPC, TRPCError } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { RequestAuth } from './auth.js';
import type { Context } from './context.js';
import { toTRPCError } from './errors.js';

const t = initTRPC
  .context<Context>()
  .meta<OpenApiMeta>()
  .create({
    // Error shapes carry no stack traces, in any environment.
    isDev: false,
    // Subscriptions (SSE) ping idle streams, like the heartbeat of `GET /events`.
    sse: { ping: { enabled: true, intervalMs: 15_000 } },
  });

/** Builds routers. */
export const router = t.router;
/** Builds callers for in-process use (the REST routes and the tests). */
export const createCallerFactory = t.createCallerFactory;

/** Maps domain errors thrown by services to tRPC errors, in one place. */
const domainErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok) {
    const mapped = toTRPCError(result.error.cause ?? result.error);
    if (mapped instanceof TRPCError) throw mapped;
  }
  return result;
});

/** Reads: open unless `READ_TOKEN` is set, then either token is needed. */
export const readProcedure = t.procedure
  .use(domainErrors)
  .use(({ ctx, next }) => {
    const denied = accessDenied(ctx.auth, 'read');
    if (denied !== null) throw denied;
    return next();
  });

/** Writes: open unless `API_TOKEN` is set, then only that token may write. */
export const writeProcedure = t.procedure
  .use(domainErrors)
  .use(({ ctx, next }) => {
    const denied = accessDenied(ctx.auth, 'write');
    if (denied !== null) throw denied;
    return next();
  });

/**
 * Why a request may not read or write, as the error to throw, or `null` when it may. The procedures use
 * it, and the REST routes call it before reading a body, so an unauthorized caller costs no parsing.
 */
export function accessDenied(
  auth: RequestAuth,
  need: 'read' | 'write',
): TRPCError | null {
  if (need === 'read' ? auth.canRead() : auth.canWrite()) return null;
  const token = auth.token();
  if (need === 'write' && token === 'read') {
    return new TRPCError({
      code: 'FORBIDDEN',
      message: 'this token may only read; writing needs the API token',
    });
  }
  return new TRPCError({
    code: 'UNAUTHORIZED',
    message:
      token === 'none'
        ? `${need === 'read' ? 'reading' : 'writing'} needs a bearer token (Authorization: Bearer <token>)`
        : 'the bearer token is not valid',
  });
}
