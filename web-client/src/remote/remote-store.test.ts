import { describe, expect, it, vi } from 'vitest';
import { RemoteStoreError } from './remote-store-error.js';
import { createRemoteStore, isVersionedRemote } from './remote-store.js';
import type { RemoteStoreOptions } from './remote-store.js';

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

function storeWith(handler: Handler, extra: Partial<RemoteStoreOptions> = {}) {
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

  it('asks a token function for the current token before every request', async () => {
    let token: string | undefined = 'first';
    const { store, calls } = storeWith(() => json(200, []), {
      token: () => token,
    });
    await store.list();
    token = 'second';
    await store.list();
    token = undefined;
    await store.list();
    const auth = calls.map(
      (c) => (c.init.headers as Record<string, string>)['Authorization'],
    );
    expect(auth).toEqual(['Bearer first', 'Bearer second', undefined]);
  });
});

describe('createRemoteStore versions', () => {
  const entry = {
    config: { allLinks: {} },
    meta: {
      createdAt: '2024-01-01T00:00:00.000Z',
      updatedAt: '2024-01-02T00:00:00.000Z',
    },
  };
  const headersOf = (init: RequestInit) =>
    (init.headers ?? {}) as Record<string, string>;

  it('is recognised as a versioned remote', () => {
    expect(isVersionedRemote(storeWith(() => json(200, [])).store)).toBe(true);
    expect(
      isVersionedRemote({
        save: async () => undefined,
        load: async () => null,
        loadEntry: async () => null,
        list: async () => [],
        remove: async () => undefined,
      }),
    ).toBe(false);
  });

  it('loads an entry with its ETag, and answers not-modified for a 304', async () => {
    const { store, calls } = storeWith((_url, init) =>
      headersOf(init)['If-None-Match'] === '"v1"'
        ? new Response(null, { status: 304, headers: { ETag: '"v1"' } })
        : json(200, entry, { ETag: '"v1"' }),
    );
    expect(await store.loadVersioned('n')).toEqual({
      status: 'found',
      entry,
      etag: '"v1"',
    });
    expect(await store.loadVersioned('n', { ifNoneMatch: '"v1"' })).toEqual({
      status: 'not-modified',
      etag: '"v1"',
    });
    expect(headersOf(calls[1]?.init ?? {})['If-None-Match']).toBe('"v1"');
  });

  it('answers missing for a 404', async () => {
    const { store } = storeWith(() => json(404, { error: 'none' }));
    expect(await store.loadVersioned('n')).toEqual({ status: 'missing' });
  });

  it('sends If-Match or If-None-Match with a conditional save and returns the new ETag', async () => {
    const { store, calls } = storeWith(
      () => new Response(null, { status: 204, headers: { ETag: '"v2"' } }),
    );
    expect(
      await store.saveVersioned('n', { allLinks: {} }, { ifMatch: '"v1"' }),
    ).toEqual({ etag: '"v2"' });
    await store.saveVersioned('m', { allLinks: {} }, { ifNoneMatch: '*' });
    await store.save('plain', { allLinks: {} });
    expect(headersOf(calls[0]?.init ?? {})['If-Match']).toBe('"v1"');
    expect(headersOf(calls[1]?.init ?? {})['If-None-Match']).toBe('*');
    expect(headersOf(calls[2]?.init ?? {})).not.toHaveProperty('If-Match');
    expect(headersOf(calls[2]?.init ?? {})).not.toHaveProperty('If-None-Match');
  });

  it('answers an undefined ETag when the server sends none', async () => {
    const { store } = storeWith(() => new Response(null, { status: 204 }));
    expect(await store.saveVersioned('n', { allLinks: {} })).toEqual({
      etag: undefined,
    });
  });

  it('turns 412 into a conflict carrying the server ETag, or null when the config is missing', async () => {
    let current: string | null = '"v9"';
    const { store } = storeWith(() =>
      json(
        412,
        { error: 'the config changed' },
        current === null ? {} : { ETag: current },
      ),
    );
    const error = await store
      .saveVersioned('n', { allLinks: {} }, { ifMatch: '"v1"' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RemoteStoreError);
    expect(error).toMatchObject({
      kind: 'conflict',
      status: 412,
      etag: '"v9"',
      retryable: false,
      unauthorized: false,
      answered: true,
      op: 'save',
      configName: 'n',
    });
    current = null;
    await expect(
      store.removeVersioned('n', { ifMatch: '"v1"' }),
    ).rejects.toMatchObject({ kind: 'conflict', etag: null, op: 'remove' });
  });

  it('sends If-Match with a conditional remove', async () => {
    const { store, calls } = storeWith(
      () => new Response(null, { status: 204 }),
    );
    await store.removeVersioned('n', { ifMatch: '"v3"' });
    expect(calls[0]?.init.method).toBe('DELETE');
    expect(headersOf(calls[0]?.init ?? {})['If-Match']).toBe('"v3"');
  });
});
