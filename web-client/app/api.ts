/**
 * The page's calls that are not store operations: `POST /query`, `GET /search` and
 * `POST /expressions/check` on this origin. They need the server. Failures reject with a
 * `RemoteStoreError` (op `query`, `search` or `check`) whose message is the server's own reason, so the
 * page can show it beside the input it is about.
 */
import type {
  CheckExpressionInput,
  Diagnostic,
  QueryInput,
  QueryOutput,
  SearchOutput,
} from '@linkconfig/shared';
import { RemoteStoreError } from '@linkconfig/web-client';
import { expressionDiagnostics } from './expression-check.js';

const TIMEOUT_MS = 10_000;

/** What the search form can search by. */
export const SEARCH_MODES = {
  q: 'Text',
  tag: 'Tag',
  regex: 'Regular expression',
} as const;
/** A key of {@link SEARCH_MODES}: the `/search` parameter used. */
export type SearchMode = keyof typeof SEARCH_MODES;

/** Resolves `input.expression` on the server against the config `input.configName`. */
export async function runQuery(
  input: QueryInput,
  doFetch: typeof fetch,
): Promise<QueryOutput> {
  return (await call(doFetch, {
    op: 'query',
    configName: input.configName ?? '',
    path: '/query',
    init: {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(input),
    },
  })) as QueryOutput;
}

/** Searches every config on the server. */
export async function runSearch(
  search: { mode: SearchMode; text: string },
  doFetch: typeof fetch,
): Promise<SearchOutput> {
  const params = new URLSearchParams({ [search.mode]: search.text });
  return (await call(doFetch, {
    op: 'search',
    configName: '',
    path: `/search?${params.toString()}`,
    init: { method: 'GET' },
  })) as SearchOutput;
}

/**
 * The diagnostics of `input.expression` against the stored config `input.configName`, most serious
 * first. `signal` stops the request (a newer expression was typed).
 */
export async function checkExpression(
  input: { expression: string; configName: string },
  doFetch: typeof fetch,
  signal: AbortSignal,
): Promise<Diagnostic[]> {
  const body: CheckExpressionInput = input;
  return expressionDiagnostics(
    await call(doFetch, {
      op: 'check',
      configName: input.configName,
      path: '/expressions/check',
      init: {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      },
      signal,
    }),
  );
}

interface CallSpec {
  op: 'query' | 'search' | 'check';
  configName: string;
  path: string;
  init: RequestInit;
  /** Stops the call early (the caller no longer wants the answer). */
  signal?: AbortSignal;
}

async function call(doFetch: typeof fetch, spec: CallSpec): Promise<unknown> {
  const { op, configName, path, init } = spec;
  const timeout = AbortSignal.timeout(TIMEOUT_MS);
  let response: Response;
  try {
    response = await doFetch(new URL(path, location.origin), {
      ...init,
      headers: { Accept: 'application/json', ...init.headers },
      signal: spec.signal ? AbortSignal.any([timeout, spec.signal]) : timeout,
    });
  } catch (error) {
    // Stopped by the caller: not a failure of the server, and nobody waits for the answer.
    if (spec.signal?.aborted) throw error;
    const timedOut =
      error instanceof DOMException && error.name === 'TimeoutError';
    throw new RemoteStoreError({
      op,
      configName,
      kind: timedOut ? 'timeout' : 'network',
      status: 0,
      message: timedOut
        ? `no answer within ${TIMEOUT_MS} ms`
        : 'the server could not be reached',
      cause: error,
    });
  }
  const text = await response.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text) as unknown;
  } catch {
    // Not JSON: handled below.
  }
  if (!response.ok || body === null) {
    const reason =
      typeof body === 'object' &&
      body !== null &&
      'error' in body &&
      typeof body.error === 'string'
        ? body.error
        : response.ok
          ? 'the answer is not JSON'
          : response.statusText;
    throw new RemoteStoreError({
      op,
      configName,
      kind: 'http',
      status: response.status,
      message: reason,
    });
  }
  return body;
}
