/**
 * Failures in plain words, built from the fields of the stores' structured errors: a
 * `RemoteStoreError`'s operation, config name, kind and status, a `LocalStoreError`'s code. Message
 * text is never parsed; the server's own sentence is shown only as a detail.
 */
import { LocalStoreError, RemoteStoreError } from '@linkconfig/web-client';
import type { LocalStoreErrorCode } from '@linkconfig/web-client';

/** What the person was doing, per store or page operation, as a verb phrase. */
const DOING: Record<string, string> = {
  save: 'save',
  remove: 'delete',
  load: 'load',
  list: 'list the configs',
  query: 'run the expression',
  search: 'search',
  check: 'check the expression',
  watch: 'follow changes on the server',
};

/** Local storage failures, by code. */
const LOCAL: Record<LocalStoreErrorCode, string> = {
  unavailable:
    'This browser does not let the page store data (a private window, or storage turned off), so it cannot keep configs here.',
  'open-failed':
    'This browser refused to open the page’s storage; a normal (not private) window may help.',
  'open-timeout':
    'This browser’s storage did not open in time; close other tabs of this page and reload.',
  blocked:
    'Another tab of this page holds an older version of its storage; close the other tabs and reload.',
  'quota-exceeded':
    'This browser’s storage for the page is full; delete configs you no longer need and try again.',
  'connection-lost':
    'The connection to this browser’s storage was lost; try again.',
  aborted: 'Storing in this browser was interrupted; try again.',
  unknown: 'This browser’s storage failed; try again.',
};

/** How to describe a failure. */
export interface DescribeOptions {
  /** Whether a token is being sent (401 then means "not accepted" rather than "needed"). */
  tokenSet: boolean;
}

/** A sentence saying what went wrong and, where it helps, what to do. */
export function describeFailure(
  error: unknown,
  options: DescribeOptions,
): string {
  if (error instanceof RemoteStoreError) return describeRemote(error, options);
  if (error instanceof LocalStoreError) return LOCAL[error.code];
  return error instanceof Error ? error.message : String(error);
}

function describeRemote(
  error: RemoteStoreError,
  options: DescribeOptions,
): string {
  const what = target(error);
  switch (error.kind) {
    case 'network':
      return `Could not reach the server to ${what}.`;
    case 'timeout':
      return `The server did not answer in time when asked to ${what}.`;
    case 'conflict':
      return `Someone else changed this config on the server, so the page could not ${what}; choose which version to keep.`;
    case 'http':
      break;
  }
  const status = error.status;
  if (status === 401)
    return options.tokenSet
      ? `The server did not accept the token, so the page could not ${what}.`
      : `The server needs a token to ${what}.`;
  if (status === 403)
    return `The token may only read: to ${what}, the server needs the write token.`;
  if (status === 429)
    return `The server is busy and asked the page to wait before it tries to ${what} again.`;
  if (status >= 500)
    return `The server had a problem (error ${status}) when asked to ${what}.`;
  return `The server refused to ${what} (error ${status}).`;
}

/** "save "team"" or "list the configs": the operation and its config. */
function target(error: RemoteStoreError): string {
  const verb = DOING[error.op] ?? error.op;
  return error.configName === '' ? verb : `${verb} "${error.configName}"`;
}
