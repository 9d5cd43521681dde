import { initTRPC, TRPCError } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { Context } from './context.js';
import { toTRPCError } from './errors.js';

const t = initTRPC.context<Context>().meta<OpenApiMeta>().create({
  // Error shapes carry no stack traces, in any environment.
  isDev: false,
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

const denied = (token: string, need: string): TRPCError =>
  new TRPCError({
    code: 'UNAUTHORIZED',
    message:
      token === 'none'
        ? `${need} needs a bearer token (Authorization: Bearer <token>)`
        : 'the bearer token is not valid',
  });

/** Reads: open unless `READ_TOKEN` is set, then either token is needed. */
export const readProcedure = t.procedure
  .use(domainErrors)
  .use(({ ctx, next }) => {
    if (!ctx.auth.canRead()) throw denied(ctx.auth.token(), 'reading');
    return next();
  });

/** Writes: open unless `API_TOKEN` is set, then only that token may write. */
export const writeProcedure = t.procedure
  .use(domainErrors)
  .use(({ ctx, next }) => {
    if (ctx.auth.canWrite()) return next();
    if (ctx.auth.token() === 'read') {
      throw new TRPCError({
        code: 'FORBIDDEN',
        message: 'this token may only read; writing needs the API token',
      });
    }
    throw denied(ctx.auth.token(), 'writing');
  });
