import { TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server';

/** Machine-readable codes of the domain errors that services throw. */
export type DomainErrorCode =
  | 'not_found'
  | 'invalid_config'
  | 'invalid_pattern'
  | 'invalid_request'
  | 'precondition_failed';

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

/** The one table from domain codes to tRPC codes (and through them to HTTP statuses). */
const TRPC_CODES: Record<DomainErrorCode, TRPC_ERROR_CODE_KEY> = {
  not_found: 'NOT_FOUND',
  invalid_config: 'BAD_REQUEST',
  invalid_pattern: 'BAD_REQUEST',
  invalid_request: 'BAD_REQUEST',
  precondition_failed: 'PRECONDITION_FAILED',
};

/** Turns a domain error into the tRPC error the procedures throw; anything else passes through. */
export function toTRPCError(error: unknown): unknown {
  if (error instanceof DomainError) {
    return new TRPCError({
      code: TRPC_CODES[error.code],
      message: error.message,
      cause: error,
    });
  }
  return error;
}
