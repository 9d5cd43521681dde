import type { Logger } from 'pino';
import { DomainError, INTERNAL_ERROR_MESSAGE } from '../errors.js';
import { HttpError } from './http-error.js';

/** A non-2xx answer: status, `{ error }` message and extra headers. */
export interface ErrorAnswer {
  readonly status: number;
  readonly message: string;
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * Maps any error to the answer the client gets. HTTP and domain errors keep their message (a domain
 * error answers its status from `errors.ts`); anything else is a 500 whose details go to the log only.
 */
export function toErrorAnswer(error: unknown, log: Logger): ErrorAnswer {
  const known = error instanceof DomainError ? HttpError.of(error) : error;
  if (known instanceof HttpError) {
    return {
      status: known.status,
      message: known.message,
      headers: known.headers,
    };
  }
  log.error({ err: error }, 'request failed');
  return {
    status: 500,
    message: INTERNAL_ERROR_MESSAGE,
    headers: {},
  };
}
