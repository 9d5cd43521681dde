import type { ConfigEntry, LinkConfig } from '@linkconfig/shared';
import type { ConfigStore } from '../config-store.js';
import { RemoteStoreError, parseRetryAfter } from './remote-store-error.js';

/** Options of {@link createRemoteStore}. */
export interface RemoteStoreOptions {
  /** The API server's base URL, e.g. `http://localhost:3000`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string;
  /** Extra headers sent on every request. */
  headers?: Record<string, string>;
  /** Per-request time limit in ms (default 10 000). */
  timeoutMs?: number;
  /** A `fetch` to use instead of the global one. */
  fetch?: typeof fetch;
}

interface CallSpec {
  op: string;
  configName: string;
  method: string;
  path: string;
  body?: string;
}

/**
 * Creates a ConfigStore backed by the REST API (service contract §4.2). Works in browsers and Node 20.
 *
 * @example
 * const store = createRemoteStore({ baseUrl: 'http://localhost:3000', token: process.env.API_TOKEN });
 * console.log(await store.list());
 */
export function createRemoteStore(options: RemoteStoreOptions): ConfigStore {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 10_000;
  const doFetch =
    options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const headers: Record<string, string> = {
    Accept: 'application/json',
    ...options.headers,
  };
  if (options.token !== undefined)
    headers['Authorization'] = `Bearer ${options.token}`;

  /**
   * Performs one call and reads its body under the same time limit (a body can hang as well as the
   * headers). Resolves for 2xx and 404; rejects with a RemoteStoreError for anything else.
   */
  const call = async (
    spec: CallSpec,
  ): Promise<{ status: number; text: string }> => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    const requestHeaders: Record<string, string> = { ...headers };
    if (spec.body !== undefined)
      requestHeaders['Content-Type'] = 'application/json';
    try {
      const response = await doFetch(`${baseUrl}${spec.path}`, {
        method: spec.method,
        headers: requestHeaders,
        body: spec.body,
        signal: controller.signal,
      });
      const text = await response.text();
      if (response.ok || response.status === 404)
        return { status: response.status, text };
      throw new RemoteStoreError({
        op: spec.op,
        configName: spec.configName,
        kind: 'http',
        status: response.status,
        message: `${spec.method} ${spec.path} failed with ${response.status}: ${errorMessage(text, response.statusText)}`,
        retryAfterMs: parseRetryAfter(
          response.headers.get('Retry-After'),
          Date.now(),
        ),
      });
    } catch (error) {
      if (error instanceof RemoteStoreError) throw error;
      const timedOut = controller.signal.aborted;
      throw new RemoteStoreError({
        op: spec.op,
        configName: spec.configName,
        kind: timedOut ? 'timeout' : 'network',
        status: 0,
        message: timedOut
          ? `${spec.method} ${spec.path}: no answer within ${timeoutMs} ms`
          : `${spec.method} ${spec.path}: the server could not be reached`,
        cause: error,
      });
    } finally {
      clearTimeout(timer);
    }
  };

  const parse = (text: string, spec: CallSpec): unknown => {
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw new RemoteStoreError({
        ...spec,
        kind: 'http',
        status: 200,
        message: `${spec.method} ${spec.path}: the response is not JSON`,
        cause: error,
      });
    }
  };

  const configPath = (name: string) => `/configs/${encodeURIComponent(name)}`;

  const loadEntry = async (name: string): Promise<ConfigEntry | null> => {
    const spec = {
      op: 'load',
      configName: name,
      method: 'GET',
      path: configPath(name),
    };
    const response = await call(spec);
    if (response.status === 404) return null;
    return parse(response.text, spec) as ConfigEntry;
  };

  return {
    async save(name: string, config: LinkConfig) {
      const response = await call({
        op: 'save',
        configName: name,
        method: 'PUT',
        path: configPath(name),
        body: JSON.stringify(config),
      });
      if (response.status === 404) {
        throw new RemoteStoreError({
          op: 'save',
          configName: name,
          kind: 'http',
          status: 404,
          message: `PUT ${configPath(name)} failed with 404`,
        });
      }
    },
    loadEntry,
    load: async (name) => (await loadEntry(name))?.config ?? null,
    async list() {
      const spec = {
        op: 'list',
        configName: '',
        method: 'GET',
        path: '/configs',
      };
      const body = parse((await call(spec)).text, spec);
      if (!Array.isArray(body) || !body.every((n) => typeof n === 'string')) {
        throw new RemoteStoreError({
          ...spec,
          kind: 'http',
          status: 200,
          message: 'GET /configs did not return a list of names',
        });
      }
      return body;
    },
    async remove(name: string) {
      // A 404 means it is already gone: done.
      await call({
        op: 'remove',
        configName: name,
        method: 'DELETE',
        path: configPath(name),
      });
    },
  };
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
