/**
 * A `fetch` for tests against a real server: it records every request as it leaves the client (method,
 * path, headers) and can change a request on its way, so a test can show that a header is what makes
 * the server answer as it does (strip it, and the answer changes).
 */

/** One request as it was sent. */
export interface SentRequest {
  method: string;
  /** Path and query, e.g. `/configs/a`. */
  path: string;
  /** The headers as sent, after any edit. */
  headers: Headers;
}

/** Changes a request before it is sent (its headers may be edited in place). */
export type RequestEdit = (request: SentRequest) => void;

/** A recording fetch and what it saw. */
export interface RecordingFetch {
  fetch: typeof fetch;
  /** Every request sent, in order. */
  readonly requests: SentRequest[];
  /** Edits every later request (`undefined`: send them unchanged). */
  setEdit(edit: RequestEdit | undefined): void;
}

/** Creates a fetch that records (and optionally edits) requests, then sends them with the global fetch. */
export function createRecordingFetch(): RecordingFetch {
  const requests: SentRequest[] = [];
  let edit: RequestEdit | undefined;
  const recording: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const request: SentRequest = {
      method: init?.method ?? (input instanceof Request ? input.method : 'GET'),
      path: `${url.pathname}${url.search}`,
      headers: new Headers(
        init?.headers ?? (input instanceof Request ? input.headers : undefined),
      ),
    };
    edit?.(request);
    requests.push(request);
    return globalThis.fetch(input, { ...init, headers: request.headers });
  };
  return {
    fetch: recording,
    requests,
    setEdit(next) {
      edit = next;
    },
  };
}
