import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import type { Logger } from 'pino';
import { PreconditionFailedError } from '../errors.js';
import { HttpError } from './http-error.js';

/** A non-2xx answer: status, `{ error }` message and extra headers. */
export interface ErrorAnswer {
  readonly status: number;
  readonly message: string;
  readonly headers: Readonly<Record<string, string>>;
}

interface IssueLike {
  readonly path?: readonly PropertyKey[];
  readonly message: string;
}

const hasIssues = (v: unknown): v is { issues: readonly IssueLike[] } =>
  typeof v === 'object' &&
  v !== null &&
  Array.isArray((v as { issues?: unknown }).issues);

/** `configs.2: …; expression: must not be empty` from zod issues. */
function describeIssues(issues: readonly IssueLike[]): string {
  return issues
    .slice(0, 5)
    .map((issue) => {
      const path = (issue.path ?? []).map(String).join('.');
      return path === '' ? issue.message : `${path}: ${issue.message}`;
    })
    .join('; ');
}

/**
 * Maps any error to the answer the client gets. Known errors keep their message; anything else is a 500
 * whose details go to the log only.
 */
export function toErrorAnswer(error: unknown, log: Logger): ErrorAnswer {
  if (error instanceof HttpError) {
    return {
      status: error.status,
      message: error.message,
      headers: error.headers,
    };
  }
  if (error instanceof TRPCError) {
    const status = getHTTPStatusCodeFromError(error);
    if (status >= 500) {
      log.error({ err: error.cause ?? error }, 'request failed');
      return {
        status: 500,
        message: 'internal server error; the details are in the server log',
        headers: {},
      };
    }
    const message = hasIssues(error.cause)
      ? describeIssues(error.cause.issues)
      : error.message;
    const headers: Record<string, string> =
      status === 401 ? { 'WWW-Authenticate': 'Bearer' } : {};
    // A refused conditional write tells the client which version is stored (none: no header).
    if (
      error.cause instanceof PreconditionFailedError &&
      error.cause.currentEtag !== null
    ) {
      headers['ETag'] = error.cause.currentEtag;
    }
    return { status, message, headers };
  }
  log.error({ err: error }, 'request failed');
  return {
    status: 500,
    message: 'internal server error; the details are in the server log',
    headers: {},
  };
}
