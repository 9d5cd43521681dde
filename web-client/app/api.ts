/**
 * The page's calls that are not store operations: `POST /query` and `GET /search` on the same origin.
 * They need the server; failures come back as plain-word errors.
 */
import type { QueryInput, QueryOutput, SearchOutput } from '@linkconfig/shared';
import { plainWords } from './plain-words.js';

const TIMEOUT_MS = 10_000;

/** What the search form can search by. */
export type SearchMode = 'q' | 'tag' | 'regex';

/** Resolves `expression` on the server against the config `configName`. */
export async function runQuery(
  input: QueryInput,
  doFetch: typeof fetch = fetch,
): Promise<QueryOutput> {
  return (await call(doFetch, '/query', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(input),
  })) as QueryOutput;
}

/** Searches every config on the server. */
export async function runSearch(
  search: { mode: SearchMode; text: string },
  doFetch: typeof fetch = fetch,
): Promise<SearchOutput> {
  const params = new URLSearchParams({ [search.mode]: search.text });
  return (await call(doFetch, `/search?${params.toString()}`, {
    method: 'GET',
  })) as SearchOutput;
}

async function call(
  doFetch: typeof fetch,
  path: string,
  init: RequestInit,
): Promise<unknown> {
  let response: Response;
  try {
    response = await doFetch(new URL(path, location.origin), {
      ...init,
      headers: { Accept: 'application/json', ...init.headers },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    const timedOut =
      error instanceof DOMException && error.name === 'TimeoutError';
    throw new Error(
      timedOut
        ? 'The server did not answer in time.'
        : 'Could not reach the server. Queries and searches need it; your configs still work offline.',
      { cause: error },
    );
  }
  const text = await response.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text) as unknown;
  } catch {
    // Not JSON: handled below.
  }
  if (!response.ok) {
    const reason =
      typeof body === 'object' && body !== null && 'error' in body
        ? String((body as { error: unknown }).error)
        : response.statusText;
    throw new Error(
      plainWords(
        `${init.method ?? 'GET'} ${path.split('?')[0] ?? path} failed with ${response.status}: ${reason}`,
      ),
    );
  }
  if (body === null)
    throw new Error('The server sent an answer the page cannot read.');
  return body;
}
