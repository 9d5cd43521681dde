/**
 * One HTTP request of the remote store: headers (token, extra headers), the time limit, and the mapping
 * of every failure to a {@link RemoteStoreError}.
 */
import { callKindOf } from './connection.js';
import type { CallAccess, Connection } from './connection.js';
import { RemoteStoreError, parseRetryAfter } from './remote-store-error.js';

/** A bearer token, or a function giving the current one (it may change while the app runs). */
export type TokenSource =
  string | (() => string | undefined | Promise<string | undefined>);

/**
 * The `Authorization` header a token source gives now (none for no token or an empty one). Read per
 * request: the app may change the token at run time. The remote store and the typed client both send it.
 */
export async function bearerHeader(
  token: TokenSource | undefined,
): Promise<Record<string, string>> {
  const current = typeof token === 'function' ? await token() : token;
  return current === undefined || current === ''
    ? {}
    : { Authorization: `Bearer ${current}` };
}

/** Options of {@link createHttpCaller} (and of the remote store). */
export interface HttpCallerOptions {
  /** The API server's base URL, e.g. `http://localhost:3000`. */
  baseUrl: string;
  /**
   * Sent as `Authorization: Bearer <token>`: a string, or a function called before every request that
   * returns the current token (so the app can change it without recreating the store).
   */
  token?: TokenSource;
  /** Extra headers sent on every request. */
  headers?: Record<string, string>;
  /** Per-request time limit in ms (default 10 000); for the change feed, the time to open it. */
  timeoutMs?: number;
  /** A `fetch` to use instead of the global one. */
  fetch?: typeof fetch;
  /**
   * The connection model every request reports its outcome to (reachability, access): give the same
   * one to every caller and store of an app, and its state covers all of their requests.
   */
  connection?: Connection;
}

/** One request. */
export interface CallSpec {
  /** The store operation, for errors. */
  op: string;
  /** The config the operation is about (empty for `list` and the change feed). */
  configName: string;
  method: string;
  path: string;
  body?: string;
  /** The body's media type (default `application/json`). */
  contentType?: string;
  /** Request headers on top of the common ones. */
  headers?: Record<string, string>;
  /**
   * What the request tells the connection model about access: a read, a write, or `none` (calls whose
   * refusal says nothing about reading or writing configs, such as managing keys). By default a GET or
   * HEAD is a read and any other method a write.
   */
  access?: CallAccess;
  /** Non-2xx statuses that are answers, not failures (for example 404 on a read). */
  accept?: readonly number[];
  /**
   * Stops the call early (the caller no longer wants the answer): it then rejects with the abort
   * reason itself, not a `RemoteStoreError`. Only for {@link HttpCaller.call}.
   */
  signal?: AbortSignal;
}

/** A finished request whose body was read. */
export interface CallResult {
  status: number;
  text: string;
  headers: Headers;
}

/** Sends requests to one server. */
export interface HttpCaller {
  /** Sends `spec` and reads the whole body under the time limit. */
  call(spec: CallSpec): Promise<CallResult>;
  /**
   * Sends `spec` and resolves with the response as soon as its headers arrived (the time limit covers
   * only that part), for streams. `signal` aborts the request and the stream.
   */
  open(spec: CallSpec, signal: AbortSignal): Promise<Response>;
}

/**
 * The body of an answer to `spec` as JSON, checked by `read` when given (a zod schema's `parse`); a body
 * that is not JSON, or that `read` refuses, is a `RemoteStoreError` of kind `http`.
 */
export function answerJson<T = unknown>(
  spec: CallSpec,
  answer: Pick<CallResult, 'status' | 'text'>,
  read?: (value: unknown) => T,
): T {
  try {
    const value: unknown = JSON.parse(answer.text);
    return read === undefined ? (value as T) : read(value);
  } catch (error) {
    throw new RemoteStoreError({
      op: spec.op,
      configName: spec.configName,
      kind: 'http',
      status: answer.status,
      message: `${spec.method} ${spec.path}: the response is not ${read === undefined ? 'JSON' : `a ${spec.op} answer`}`,
      cause: error,
    });
  }
}

/** Sends `spec` (404 accepted) and reads its JSON answer by {@link answerJson}; `null` on 404. */
export async function callJson<T = unknown>(
  http: HttpCaller,
  spec: CallSpec,
  read?: (value: unknown) => T,
): Promise<T | null> {
  const answer = await http.call(spec);
  return answer.status === 404 ? null : answerJson(spec, answer, read);
}

/** Creates the request function of a remote store. */
export function createHttpCaller(options: HttpCallerOptions): HttpCaller {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 10_000;
  const doFetch =
    options.fetch ?? ((input, init) => globalThis.fetch(input, init));

  const headersFor = async (spec: CallSpec) => {
    const headers: Record<string, string> = {
      Accept: 'application/json',
      ...options.headers,
      ...spec.headers,
    };
    Object.assign(headers, await bearerHeader(options.token));
    if (spec.body !== undefined)
      headers['Content-Type'] = spec.contentType ?? 'application/json';
    return headers;
  };

  /**
   * Tells the connection model how a request ended: answered, or the failure it rejects with (not
   * when its caller stopped it).
   */
  const report = (
    spec: CallSpec,
    tokenSent: boolean,
    failure?: RemoteStoreError,
  ) => {
    const kind = spec.access ?? callKindOf(spec.method);
    if (failure === undefined) options.connection?.answered(kind);
    else options.connection?.failed(kind, failure, tokenSent);
  };

  /** Sends the request; rejects for statuses that are neither 2xx nor accepted. */
  const send = async (
    spec: CallSpec,
    signal: AbortSignal,
    sent: { token: boolean },
  ) => {
    const headers = await headersFor(spec);
    sent.token = 'Authorization' in headers;
    const response = await doFetch(`${baseUrl}${spec.path}`, {
      method: spec.method,
      headers,
      body: spec.body,
      signal,
    });
    if (response.ok || spec.accept?.includes(response.status)) return response;
    throw httpError(spec, response, await response.text());
  };

  const noAnswer = (spec: CallSpec, error: unknown, timedOut: boolean) => {
    if (error instanceof RemoteStoreError) return error;
    return new RemoteStoreError({
      op: spec.op,
      configName: spec.configName,
      kind: timedOut ? 'timeout' : 'network',
      status: 0,
      message: timedOut
        ? `${spec.method} ${spec.path}: no answer within ${timeoutMs} ms`
        : `${spec.method} ${spec.path}: the server could not be reached`,
      cause: error,
    });
  };

  /** Aborts `controller` for running out of time (a reason a `fetch` wrapper can tell from a stop). */
  const timeUp = (controller: AbortController) =>
    controller.abort(new DOMException('no answer in time', 'TimeoutError'));

  return {
    async call(spec) {
      const controller = new AbortController();
      const timer = setTimeout(() => timeUp(controller), timeoutMs);
      const stop = () => controller.abort(spec.signal?.reason);
      spec.signal?.addEventListener('abort', stop, { once: true });
      if (spec.signal?.aborted) stop();
      const sent = { token: false };
      try {
        const response = await send(spec, controller.signal, sent);
        // The body is read under the same limit: it can hang as well as the headers.
        const text = await response.text();
        report(spec, sent.token);
        return { status: response.status, text, headers: response.headers };
      } catch (error) {
        // Stopped by the caller: not a failure of the server, and nobody waits for the answer.
        if (spec.signal?.aborted) throw error;
        const failure = noAnswer(spec, error, controller.signal.aborted);
        report(spec, sent.token, failure);
        throw failure;
      } finally {
        clearTimeout(timer);
        spec.signal?.removeEventListener('abort', stop);
      }
    },
    async open(spec, signal) {
      const controller = new AbortController();
      const abort = () => controller.abort();
      signal.addEventListener('abort', abort, { once: true });
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        timeUp(controller);
      }, timeoutMs);
      const sent = { token: false };
      try {
        const response = await send(spec, controller.signal, sent);
        report(spec, sent.token);
        return response;
      } catch (error) {
        signal.removeEventListener('abort', abort);
        // Closed by its owner before it opened: nothing learned about the server.
        if (signal.aborted && !timedOut) throw noAnswer(spec, error, false);
        const failure = noAnswer(spec, error, timedOut);
        report(spec, sent.token, failure);
        throw failure;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/** The error for an HTTP answer that is a failure; 412 is a conflict carrying the current ETag. */
function httpError(
  spec: CallSpec,
  response: Response,
  text: string,
): RemoteStoreError {
  const conflict = response.status === 412;
  const reason = errorMessage(text, response.statusText);
  return new RemoteStoreError({
    op: spec.op,
    configName: spec.configName,
    kind: conflict ? 'conflict' : 'http',
    status: response.status,
    message: `${spec.method} ${spec.path} failed with ${response.status}: ${reason}`,
    reason,
    retryAfterMs: parseRetryAfter(
      response.headers.get('Retry-After'),
      Date.now(),
    ),
    etag: conflict ? response.headers.get('ETag') : undefined,
  });
}

/** The server's `{error}` message, or the status text when the body has none. */
function errorMessage(text: string, statusText: string): string {
  try {
    const body: unknown = JSON.parse(text);
    if (
      typeof body === 'object' &&
      body !== null &&
      typeof (body as { error?: unknown }).error === 'string'
    ) {
      return (body as { error: string }).error;
    }
  } catch {
    // Not JSON: fall back to the status text.
  }
  return statusText || 'no error message';
}
