import { describe, expect, it, vi } from 'vitest';
import { RemoteStoreError } from './remote-store-error.js';
import { createRemoteStore } from './remote-store.js';

type Handler = (url: string, init: RequestInit) => Response | Promise<Response>;

const json = (
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });

function storeWith(
  handler: Handler,
  extra: { token?: string; timeoutMs?: number } = {},
) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetch = vi.fn(
    async (input: string | URL | Request, init?: RequestInit) => {
      const url = String(input);
      calls.push({ url, init: init ?? {} });
      return handler(url, init ?? {});
    },
  );
  const store = createRemoteStore({
    baseUrl: 'http://api.test/',
    headers: { 'X-App': 'tests' },
    fetch: fetch as unknown as typeof globalThis.fetch,
    ...extra,
  });
  return { store, calls };
}

describe('createRemoteStore', () => {
  it('maps save to PUT with the JSON body, an encoded name, the token and the extra headers', async () => {
    const { store, calls } = storeWith(
      () => new Response(null, { status: 204 }),
      { token: 's3cret' },
    );
    await store.save('a/b c%', { allLinks: {} });
    expect(calls[0]?.url).toBe('http://api.test/configs/a%2Fb%20c%25');
    expect(calls[0]?.init.method).toBe('PUT');
    expect(calls[0]?.init.body).toBe('{"allLinks":{}}');
    expect(calls[0]?.init.headers).toMatchObject({
      Authorization: 'Bearer s3cret',
      'X-App': 'tests',
      'Content-Type': 'application/json',
    });
  });

  it('returns the config of the entry from load, and the entry from loadEntry', async () => {
    const entry = {
      config: { allLinks: { a: { url: 'u' } } },
      meta: {
        createdAt: '2024-01-01T00:00:00.000Z',
        updatedAt: '2024-01-02T00:00:00.000Z',
      },
    };
    const { store } = storeWith(() => json(200, entry));
    expect(await store.load('x')).toEqual(entry.config);
    expect(await store.loadEntry('x')).toEqual(entry);
  });

  it('answers null for 404 on load and treats 404 on remove as done', async () => {
    const { store } = storeWith(() =>
      json(404, { error: 'no config named "x"' }),
    );
    expect(await store.load('x')).toBeNull();
    expect(await store.loadEntry('x')).toBeNull();
    await expect(store.remove('x')).resolves.toBeUndefined();
  });

  it('rejects other statuses with a RemoteStoreError carrying op, config name, status and the server message', async () => {
    const { store } = storeWith(() =>
      json(400, { error: 'allLinks.a.url must be a string' }),
    );
    const error = await store
      .save('cfg', { allLinks: {} })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RemoteStoreError);
    expect(error).toMatchObject({
      op: 'save',
      name: 'RemoteStoreError',
      configName: 'cfg',
      status: 400,
      kind: 'http',
      retryable: false,
    });
    expect((error as Error).message).toContain(
      'allLinks.a.url must be a string',
    );
  });

  it('reads Retry-After on 429 and marks it retryable', async () => {
    const { store } = storeWith(() =>
      json(429, { error: 'slow down' }, { 'Retry-After': '7' }),
    );
    await expect(store.list()).rejects.toMatchObject({
      status: 429,
      retryAfterMs: 7000,
      retryable: true,
    });
  });

  it('reports a network failure as kind network with status 0', async () => {
    const { store } = storeWith(() => {
      throw new TypeError('fetch failed');
    });
    await expect(store.remove('n')).rejects.toMatchObject({
      op: 'remove',
      configName: 'n',
      kind: 'network',
      status: 0,
    });
  });

  it('aborts a request that does not answer in time', async () => {
    const { store } = storeWith(
      (_url, init) =>
        new Promise<Response>((_resolve, reject) => {
          init.signal?.addEventListener('abort', () =>
            reject(new DOMException('aborted', 'AbortError')),
          );
        }),
      { timeoutMs: 20 },
    );
    await expect(store.load('slow')).rejects.toMatchObject({
      kind: 'timeout',
      status: 0,
      retryable: true,
    });
  });

  it('lists names and rejects a body that is not a list of names', async () => {
    expect(await storeWith(() => json(200, ['a', 'b'])).store.list()).toEqual([
      'a',
      'b',
    ]);
    await expect(
      storeWith(() => json(200, { a: 1 })).store.list(),
    ).rejects.toBeInstanceOf(RemoteStoreError);
  });
});
