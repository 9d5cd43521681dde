/**
 * The page's calls that are not store operations: `GET /search`, `POST /expressions/check`, what the
 * key may do (`GET /access`) and, for admins, the keys (`/keys`), on this origin (expressions themselves run in the page, on the draft). They need the server, and go through
 * the package's HTTP caller (the remote store's: headers, token, time limit, failures). Failures reject
 * with a `RemoteStoreError` (op `search`, `check`, `access` or `keys`) whose message is the server's own reason, so the
 * page can show it beside the input it is about.
 */
import type {
  AccessKey,
  AccessOutput,
  CheckExpressionInput,
  CreateKeyInput,
  CreateKeyOutput,
  Diagnostic,
  SearchOutput,
} from '@linkconfig/shared';
import { RemoteStoreError } from '@linkconfig/web-client';
import type { CallSpec, HttpCaller } from '@linkconfig/web-client';
import { expressionDiagnostics } from '../model/expression-check.js';

/** What the search form can search by. */
export const SEARCH_MODES = {
  q: 'Text',
  tag: 'Tag',
  regex: 'Regular expression',
} as const;
/** A key of {@link SEARCH_MODES}: the `/search` parameter used. */
export type SearchMode = keyof typeof SEARCH_MODES;

/** Searches every config on the server. */
export async function runSearch(
  search: { mode: SearchMode; text: string },
  caller: HttpCaller,
): Promise<SearchOutput> {
  const params = new URLSearchParams({ [search.mode]: search.text });
  return (await call(caller, {
    op: 'search',
    configName: '',
    method: 'GET',
    access: 'read',
    path: `/search?${params.toString()}`,
  })) as SearchOutput;
}

/**
 * The diagnostics of `input.expression` against the stored config `input.configName`, most serious
 * first. `signal` stops the request (a newer expression was typed).
 */
export async function checkExpression(
  input: { expression: string; configName: string },
  caller: HttpCaller,
  signal: AbortSignal,
): Promise<Diagnostic[]> {
  const body: CheckExpressionInput = input;
  return expressionDiagnostics(
    await call(caller, {
      op: 'check',
      configName: input.configName,
      method: 'POST',
      path: '/expressions/check',
      // Checking an expression reads the stored config.
      access: 'read',
      body: JSON.stringify(body),
      signal,
    }),
  );
}

/** What the current key (or token, or no key) may do: `GET /access`. */
export async function fetchAccess(caller: HttpCaller): Promise<AccessOutput> {
  return (await call(caller, {
    op: 'access',
    configName: '',
    method: 'GET',
    path: '/access',
  })) as AccessOutput;
}

/** Every key, without secrets (admins only): `GET /keys`. */
export async function listKeys(caller: HttpCaller): Promise<AccessKey[]> {
  const answer = (await call(caller, {
    op: 'keys',
    configName: '',
    method: 'GET',
    path: '/keys',
    // Managing keys is for admins: a refusal says nothing of reading or writing configs.
    access: 'none',
  })) as { keys: AccessKey[] };
  return answer.keys;
}

/** Creates a key; the answer holds its secret, this once (admins only): `POST /keys`. */
export async function createKey(
  input: CreateKeyInput,
  caller: HttpCaller,
): Promise<CreateKeyOutput> {
  return (await call(caller, {
    op: 'keys',
    configName: '',
    method: 'POST',
    path: '/keys',
    // Managing keys is for admins: a refusal says nothing of reading or writing configs.
    access: 'none',
    body: JSON.stringify(input),
  })) as CreateKeyOutput;
}

/** Revokes key `id` (admins only): `DELETE /keys/{id}`. */
export async function revokeKey(id: string, caller: HttpCaller): Promise<void> {
  await call(caller, {
    op: 'keys',
    configName: '',
    method: 'DELETE',
    path: `/keys/${encodeURIComponent(id)}`,
    // Managing keys is for admins: a refusal says nothing of reading or writing configs.
    access: 'none',
  });
}

/** Sends `spec` and reads its JSON answer; an HTTP failure's message is the server's reason. */
async function call(caller: HttpCaller, spec: CallSpec): Promise<unknown> {
  let text: string;
  try {
    ({ text } = await caller.call(spec));
  } catch (error) {
    if (!(error instanceof RemoteStoreError) || error.kind !== 'http')
      throw error;
    throw new RemoteStoreError({
      op: spec.op,
      configName: spec.configName,
      kind: 'http',
      status: error.status,
      message: error.reason ?? error.message,
      cause: error,
    });
  }
  // 204: no body.
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new RemoteStoreError({
      op: spec.op,
      configName: spec.configName,
      kind: 'http',
      status: 200,
      message: 'the answer is not JSON',
    });
  }
}
