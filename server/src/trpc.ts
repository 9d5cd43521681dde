import { initTRPC, TRPCError } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { z } from 'zod';
import type { RequestAuth } from './auth.js';
import type { Context } from './context.js';
import { describeIssues, issuesOf, toTRPCError } from './errors.js';

/** What a REST route needs beyond `openapi.method` and `openapi.path` (see `http/route-table.ts`). */
export interface RestMeta {
  /**
   * Where a PUT/POST input comes from: the body's fields (default), or the whole body as one input field
   * (PUT `/configs/{name}`: the body *is* the config).
   */
  readonly body?: 'fields' | { readonly as: string };
  /** Input fields read from request headers: input field → header name. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The success status (default 200; 204 answers no body). */
  readonly status?: 200 | 204;
  /** An expensive read (search, expression resolution): rate limits give it its own budget. */
  readonly expensive?: boolean;
}

/** The meta of every procedure: its REST route (trpc-to-openapi) and how REST binds to it. */
export type ProcedureMeta = OpenApiMeta & { readonly rest?: RestMeta };

const t = initTRPC
  .context<Context>()
  .meta<ProcedureMeta>()
  .create({
    // Error shapes carry no stack traces, in any environment.
    isDev: false,
    // The same readable message as REST (`name must be at most 256 characters`); the structured issues
    // go to `data.issues`, never JSON-stringified into the message.
    errorFormatter: ({ shape, error }) => {
      const issues = issuesOf(error.cause);
      if (issues === undefined) return shape;
      return {
        ...shape,
        message: describeIssues(issues),
        data: { ...shape.data, issues },
      };
    },
    // Subscriptions (SSE) ping idle streams, like the heartbeat of `GET /events`.
    sse: { ping: { enabled: true, intervalMs: 15_000 } },
  });

/** Builds routers. */
export const router = t.router;
/** Builds callers for in-process use (tests and scripts). */
export const createCallerFactory = t.createCallerFactory;

/** Who may call a procedure: readers (open unless `READ_TOKEN` is set) or writers (`API_TOKEN`). */
export type Access = 'read' | 'write';

/**
 * One middleware per access kind: the access check, then domain errors mapped to tRPC errors (one
 * middleware rather than two keeps tRPC's per-call context copying to a minimum).
 */
const guarded = (need: Access) =>
  t.procedure.use(async ({ ctx, next }) => {
    const denied = accessDenied(ctx.auth, need);
    if (denied !== null) throw denied;
    const result = await next();
    if (!result.ok) {
      const mapped = toTRPCError(result.error.cause ?? result.error);
      if (mapped instanceof TRPCError) throw mapped;
    }
    return result;
  });

/** Procedures that read (subscriptions, which have no REST route of the route table, use it directly). */
export const readProcedure = guarded('read');
const writeProcedure = guarded('write');

/**
 * One operation of the service, declared once: its access, its route (meta), its zod input and output,
 * and what it does. `/trpc` serves it as a procedure ({@link queryOf}, {@link mutationOf}) and the REST
 * layer builds its route from the same declaration (`http/route-table.ts`).
 */
export interface Operation<TIn extends z.ZodType, TOut extends z.ZodType> {
  readonly access: Access;
  readonly meta: ProcedureMeta & {
    readonly openapi: NonNullable<OpenApiMeta['openapi']>;
  };
  readonly input: TIn;
  readonly output: TOut;
  /** Does the work: a thin call into one service. */
  run(ctx: Context, input: z.output<TIn>): Promise<z.input<TOut>>;
}

/** Declares an {@link Operation} (an identity function that keeps the types). */
export function operation<TIn extends z.ZodType, TOut extends z.ZodType>(
  op: Operation<TIn, TOut>,
): Operation<TIn, TOut> {
  return op;
}

const base = <TIn extends z.ZodType, TOut extends z.ZodType>(
  op: Operation<TIn, TOut>,
) =>
  (op.access === 'read' ? readProcedure : writeProcedure)
    .meta(op.meta)
    .input(op.input)
    .output(op.output);

/** The tRPC query procedure of a read operation. */
export function queryOf<TIn extends z.ZodType, TOut extends z.ZodType>(
  op: Operation<TIn, TOut>,
) {
  // The procedure's output type comes from `op.output`; the casts only bridge tRPC's generic helpers.
  return base(op).query(
    ({ ctx, input }) => op.run(ctx, input as z.output<TIn>) as never,
  );
}

/** The tRPC mutation procedure of an operation. */
export function mutationOf<TIn extends z.ZodType, TOut extends z.ZodType>(
  op: Operation<TIn, TOut>,
) {
  return base(op).mutation(
    ({ ctx, input }) => op.run(ctx, input as z.output<TIn>) as never,
  );
}

/**
 * Why a request may not read or write, as the error to throw, or `null` when it may. The procedures use
 * it, and the REST routes call it before reading a body, so an unauthorized caller costs no parsing.
 */
export function accessDenied(
  auth: RequestAuth,
  need: Access,
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
