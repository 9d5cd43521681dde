import { TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server';

/** Machine-readable codes of the domain errors that services (and the access rule) throw. */
export type DomainErrorCode =
  | 'not_found'
  | 'invalid_config'
  | 'invalid_pattern'
  | 'invalid_request'
  | 'precondition_failed'
  | 'unauthorized'
  | 'forbidden'
  | 'disabled'
  | 'busy'
  | 'too_large';

/**
 * The one table of what each domain code answers: the tRPC code (`/trpc`) and the HTTP status (REST,
 * which answers it directly, never through tRPC's own table).
 */
export const ERROR_CODES: Readonly<
  Record<
    DomainErrorCode,
    {
      readonly trpc: TRPC_ERROR_CODE_KEY;
      readonly http: 400 | 401 | 403 | 404 | 409 | 412 | 413 | 503;
    }
  >
> = {
  not_found: { trpc: 'NOT_FOUND', http: 404 },
  invalid_config: { trpc: 'BAD_REQUEST', http: 400 },
  invalid_pattern: { trpc: 'BAD_REQUEST', http: 400 },
  invalid_request: { trpc: 'BAD_REQUEST', http: 400 },
  precondition_failed: { trpc: 'PRECONDITION_FAILED', http: 412 },
  unauthorized: { trpc: 'UNAUTHORIZED', http: 401 },
  forbidden: { trpc: 'FORBIDDEN', http: 403 },
  // A feature this server runs without (link checking while LINK_CHECK=off).
  disabled: { trpc: 'CONFLICT', http: 409 },
  // Work whose memory no budget covers found its queue full (`permits.ts`): retry shortly.
  busy: { trpc: 'SERVICE_UNAVAILABLE', http: 503 },
  // One request would send more than its budget of answers (a `/trpc` batch, `answer-budget.ts`).
  too_large: { trpc: 'PAYLOAD_TOO_LARGE', http: 413 },
};

/**
 * What a caller is told of a failure that is not a rule of the service (a storage error, a bug): its own
 * text may name files, tables or values, so it goes to the log only. REST and tRPC say the same.
 */
export const INTERNAL_ERROR_MESSAGE =
  'internal server error; the details are in the server log';

/** A rule of the service was broken; the message is safe to show to the caller as is. */
export class DomainError extends Error {
  override readonly name = 'DomainError';
  constructor(
    readonly code: DomainErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** The one answer for a config that does not exist, or that the caller may not read. */
export function configNotFound(name: string): DomainError {
  return new DomainError('not_found', `config "${name}" not found`);
}

/**
 * A conditional write (`If-Match` / `If-None-Match`) found another state stored; nothing was written.
 * `currentEtag` is the stored version's ETag, `null` when the name does not exist.
 */
export class PreconditionFailedError extends DomainError {
  constructor(
    readonly currentEtag: string | null,
    message: string,
  ) {
    super('precondition_failed', message);
  }
}

/** Turns a domain error into the tRPC error the procedures throw; anything else passes through. */
export function toTRPCError(error: unknown): unknown {
  if (error instanceof DomainError) {
    return new TRPCError({
      code: ERROR_CODES[error.code].trpc,
      message: error.message,
      cause: error,
    });
  }
  return error;
}

/** One zod issue, as much of it as messages and clients need. */
export interface InputIssue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/** The zod issues an input error carries (`ZodError.issues`), if any. */
export function issuesOf(cause: unknown): readonly InputIssue[] | undefined {
  if (typeof cause !== 'object' || cause === null) return undefined;
  const issues = (cause as { issues?: unknown }).issues;
  if (!Array.isArray(issues)) return undefined;
  return issues.map((issue: { path?: PropertyKey[]; message?: unknown }) => ({
    path: issue.path ?? [],
    message: String(issue.message),
  }));
}

/**
 * One readable sentence from input issues: each message is a predicate phrased without its field
 * ("must be at most 256 characters"), so the field path is said once, in front
 * (`name must be at most 256 characters; configs.2 must be a config name or a config object`).
 */
export function describeIssues(issues: readonly InputIssue[]): string {
  return issues
    .slice(0, 5)
    .map((issue) => {
      const path = issue.path.map(String).join('.');
      return path === '' ? issue.message : `${path} ${issue.message}`;
    })
    .join('; ');
}
