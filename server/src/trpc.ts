import { initTRPC, TRPCError } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { z } from 'zod';
import { accessDenied, nameDenied, namedConfig } from './access-check.js';
import type { Access } from './auth.js';
import type { Context } from './context.js';
import {
  PreconditionFailedError,
  describeIssues,
  issuesOf,
  toTRPCError,
  INTERNAL_ERROR_MESSAGE,
} from './errors.js';
import type { InputIssue } from './errors.js';
import type { Outcome } from './outcome.js';
import type { ReceivedJson } from './received-json.js';

/**
 * How a REST answer represents an operation's value: the stored entry (its version's bytes, `ETag`,
 * 304), JSON (the outcome's `text` when it has one), or no content (204, `ETag` of a write).
 */
export type Representation = 'entry' | 'json' | 'none';

/** What a REST route needs beyond `openapi.method` and `openapi.path` (see `http/routes/route-table.ts`). */
export interface RestMeta {
  /**
   * Where a PUT/PATCH/POST input comes from: the body's fields (default), or the whole body as one input
   * field (PUT `/configs/{name}`: the body *is* the config; PATCH: the body is the merge patch), or
   * nowhere but the path (`none`: a POST that acts on what its path names reads no body).
   */
  readonly body?: 'fields' | 'none' | { readonly as: string };
  /** Input fields read from request headers: input field → header name. */
  readonly headers?: Readonly<Record<string, string>>;
  /** How the value is answered (default `json`; `none` answers 204). */
  readonly representation?: Representation;
  /**
   * Whole answers may be reused while the stored state is unchanged and the outcome's `validUntil`
   * holds (`cache/cache-policy.ts`), keyed by the request as received.
   */
  readonly reusable?: boolean;
  /** An expensive read (search, expression resolution): rate limits give it its own budget. */
  readonly expensive?: boolean;
  /** Answers 201 Created (with its JSON value) instead of 200. */
  readonly created?: boolean;
  /**
   * The answer at this URL never changes (a stored revision): REST sends it with a long, `immutable`
   * lifetime for the caller's own cache (`http/routes/published-caching.ts`).
   */
  readonly immutable?: boolean;
}

/** The meta of every procedure: its REST route (trpc-to-openapi) and how REST binds to it. */
export type ProcedureMeta = OpenApiMeta & { readonly rest?: RestMeta };

/** What a tRPC error's `data` adds to tRPC's own fields (`code`, `httpStatus`, `path`). */
export interface ErrorDetails {
  /** The input's problems, one per field (input errors only). */
  readonly issues?: readonly InputIssue[];
  /** A refused precondition: the stored version's ETag, `null` when the name does not exist. */
  readonly etag?: string | null;
}

const t = initTRPC
  .context<Context>()
  .meta<ProcedureMeta>()
  .create({
    // Error shapes carry no stack traces, in any environment.
    isDev: false,
    // The same readable message as REST (`name must be at most 256 characters`); the structured issues
    // go to `data.issues`, never JSON-stringified into the message. A refused precondition names the
    // stored version in `data.etag` (`null`: the name does not exist), as REST's 412 does in `ETag`.
    errorFormatter: ({ shape, error }) => {
      const issues = issuesOf(error.cause);
      const details: ErrorDetails =
        issues !== undefined
          ? { issues }
          : error.cause instanceof PreconditionFailedError
            ? { etag: error.cause.currentEtag }
            : {};
      return {
        ...shape,
        // An internal failure's own text stays in the log (`trpc-route.ts` logs it), as on REST.
        message:
          error.code === 'INTERNAL_SERVER_ERROR'
            ? INTERNAL_ERROR_MESSAGE
            : issues === undefined
              ? shape.message
              : describeIssues(issues),
        data: { ...shape.data, ...details },
      };
    },
    // Subscriptions (SSE) ping idle streams, like the heartbeat of `GET /events`.
    sse: { ping: { enabled: true, intervalMs: 15_000 } },
  });

/** Builds routers. */
export const router = t.router;
/** Builds callers for in-process use (tests and scripts). */
export const createCallerFactory = t.createCallerFactory;

/** Who may call a procedure: readers, writers, or admins (keys); names are checked per call. */
export type { Access } from './auth.js';

/**
 * One middleware per access kind: the access check, then domain errors mapped to tRPC errors (one
 * middleware rather than two keeps tRPC's per-call context copying to a minimum).
 */
const guarded = (need: Access) =>
  t.procedure.use(async ({ ctx, next }) => {
    const denied = accessDenied(ctx.auth, need);
    if (denied !== null) throw toTRPCError(denied);
    const result = await next();
    if (!result.ok) {
      const mapped = toTRPCError(result.error.cause ?? result.error);
      if (mapped instanceof TRPCError) throw mapped;
    }
    return result;
  });

/** Procedures that read (subscriptions, which have no REST route of the route table, use it directly). */
export const readProcedure = guarded('read');
const PROCEDURES = {
  read: readProcedure,
  write: guarded('write'),
  publish: guarded('publish'),
  admin: guarded('admin'),
} as const;

/** The method of an operation's route; GET operations are tRPC queries, the others mutations. */
export type OperationMethod = 'GET' | 'PUT' | 'PATCH' | 'DELETE' | 'POST';

/** What a transport hands an operation besides its input. */
export interface Received {
  /** The request body as received, when the route's input is the whole body (`rest.body.as`). */
  readonly body?: ReceivedJson | undefined;
  /** Aborts when the client goes away before its answer: work waiting its turn gives up its place. */
  readonly signal?: AbortSignal | undefined;
}

/**
 * One operation of the service, declared once: its access, the input that names its config (if any), its
 * route (meta), its zod input and output, and what it does. `/trpc` serves it as a procedure ({@link proceduresOf}) and the REST layer builds its
 * route from the same declaration (`http/routes/route-table.ts`).
 */
export interface Operation<
  TIn extends z.ZodType,
  TOut extends z.ZodType,
  M extends OperationMethod = OperationMethod,
> {
  readonly access: Access;
  /**
   * The input field holding the name of the one config the operation acts on: its access is then checked
   * for that name too (`access-check.ts`, `nameDenied`: a name the caller may not read is missing, a write
   * outside its patterns 403). REST reads it from the path, before the body (the route table requires it
   * there). Absent: the operation names no single config (lists and searches filter what they answer).
   * {@link operation} holds it to a field of the input.
   */
  readonly configName?: string;
  readonly meta: ProcedureMeta & {
    readonly openapi: NonNullable<OpenApiMeta['openapi']> & {
      readonly method: M;
    };
  };
  readonly input: TIn;
  readonly output: TOut;
  /** Does the work (a thin call into one service) and says what it knows about the answer. */
  run(
    ctx: Context,
    input: z.output<TIn>,
    received: Received,
  ): Promise<Outcome<z.input<TOut>>>;
}

/** Any operation, as the route table and {@link proceduresOf} see them. */
export type AnyOperation = Operation<z.ZodType, z.ZodType>;

/** Declares an {@link Operation} (an identity function that keeps the types). */
export function operation<
  TIn extends z.ZodType,
  TOut extends z.ZodType,
  M extends OperationMethod,
>(
  op: Operation<TIn, TOut, M> & {
    readonly configName?: keyof z.output<TIn> & string;
  },
): Operation<TIn, TOut, M> {
  return op;
}

/** Answers the bare value, for operations that know nothing more about it. */
export const plain = async <T>(value: T | Promise<T>): Promise<Outcome<T>> => ({
  value: await value,
});

const base = <TIn extends z.ZodType, TOut extends z.ZodType>(
  op: Operation<TIn, TOut>,
) => {
  const field = op.configName;
  const built = PROCEDURES[op.access].meta(op.meta).input(op.input);
  return (
    field === undefined
      ? built
      : // The named config's access, checked once the input is read (REST checks it from the path first).
        built.use(({ ctx, input, next }) => {
          const denied = nameDenied(
            ctx.auth,
            op.access,
            namedConfig(input, field),
          );
          if (denied !== null) throw toTRPCError(denied);
          return next();
        })
  ).output(op.output);
};

/** What tRPC answers: the outcome's value (the casts only bridge tRPC's generic helpers). */
const answer =
  <TIn extends z.ZodType, TOut extends z.ZodType>(op: Operation<TIn, TOut>) =>
  async ({
    ctx,
    input,
    signal,
  }: {
    ctx: Context;
    input: unknown;
    signal: AbortSignal | undefined;
  }) => {
    const outcome = await op.run(ctx, input as z.output<TIn>, { signal });
    // In a batch, each answer is weighed (as the JSON tRPC will send) before it is sent.
    ctx.answerBudget?.take(
      (outcome.text?.() ?? JSON.stringify(outcome.value) ?? '').length,
    );
    return outcome.value as never;
  };

const queryOf = <TIn extends z.ZodType, TOut extends z.ZodType>(
  op: Operation<TIn, TOut>,
) => base(op).query(answer(op));

const mutationOf = <TIn extends z.ZodType, TOut extends z.ZodType>(
  op: Operation<TIn, TOut>,
) => base(op).mutation(answer(op));

/** The procedure of an operation: a query for GET, else a mutation. */
type ProcedureOf<O> =
  O extends Operation<infer TIn, infer TOut, infer M>
    ? M extends 'GET'
      ? ReturnType<typeof queryOf<TIn, TOut>>
      : ReturnType<typeof mutationOf<TIn, TOut>>
    : never;

/** The tRPC procedures of a record of operations, under the same names. */
export function proceduresOf<T extends Readonly<Record<string, AnyOperation>>>(
  operations: T,
): { [K in keyof T]: ProcedureOf<T[K]> } {
  const procedures: Record<string, unknown> = {};
  for (const [name, op] of Object.entries(operations)) {
    procedures[name] =
      op.meta.openapi.method === 'GET' ? queryOf(op) : mutationOf(op);
  }
  return procedures as { [K in keyof T]: ProcedureOf<T[K]> };
}
