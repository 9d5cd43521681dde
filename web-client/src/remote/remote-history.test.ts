import { describe, expect, it, vi } from 'vitest';
import { RemoteStoreError } from './remote-store-error.js';
import { createRemoteStore } from './remote-store.js';

type Handler = (url: string, init: RequestInit) => Response;
const json = (
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });

function storeWith(handler: Handler) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetch = vi.fn(
    async (input: string | URL | Request, init?: RequestInit) => {
      calls.push({ url: String(input), init: init ?? {} });
      return handler(String(input), init ?? {});
    },
  );
  const store = createRemoteStore({
    baseUrl: 'http://api.test',
    fetch: fetch as unknown as typeof globalThis.fetch,
  });
  return { store, calls };
}

const page = {
  revisions: [
    {
      rev: 2,
      op: 'put',
      at: '2026-01-01T00:00:00.000Z',
      by: null,
      etag: '"2-x"',
      size: 10,
      summary: { added: 1, removed: 0, changed: 0 },
    },
  ],
  next: 2,
};

describe('remote store history', () => {
  it('reads a page of history with its query, and null for a name that never existed', async () => {
    const { store, calls } = storeWith((url) =>
      url.includes('/never/')
        ? json(404, { error: 'no history' })
        : json(200, page),
    );
    expect(await store.history('a b', { limit: 1, before: 3 })).toEqual(page);
    expect(calls[0]?.url).toBe(
      'http://api.test/configs/a%20b/history?limit=1&before=3',
    );
    expect(await store.history('never')).toBeNull();
    expect(calls[1]?.url).toBe('http://api.test/configs/never/history');
  });

  it('loads a revision, null when it is unknown or a delete', async () => {
    const revision = {
      config: { allLinks: {} },
      meta: { rev: 1, op: 'put', at: 'x', by: null },
    };
    const { store, calls } = storeWith((url) =>
      url.endsWith('/1')
        ? json(200, revision)
        : json(404, { error: 'no revision' }),
    );
    expect(await store.loadRevision('n', 1)).toEqual(revision);
    expect(await store.loadRevision('n', 2)).toBeNull();
    expect(calls.map((c) => c.url)).toEqual([
      'http://api.test/configs/n/revisions/1',
      'http://api.test/configs/n/revisions/2',
    ]);
  });

  it('restores with POST, the links and If-Match, and rejects a stale one as a conflict', async () => {
    const { store, calls } = storeWith((_, init) => {
      const headers = init.headers as Record<string, string>;
      return headers['If-Match'] === '"old"'
        ? json(412, { error: 'changed' }, { ETag: '"new"' })
        : json(200, { rev: 5, etag: '"5-x"' }, { ETag: '"5-x"' });
    });
    expect(
      await store.restore('n', 2, { links: ['a'], ifMatch: '"cur"' }),
    ).toEqual({
      rev: 5,
      etag: '"5-x"',
    });
    expect(calls[0]?.init.method).toBe('POST');
    expect(calls[0]?.url).toBe('http://api.test/configs/n/restore');
    expect(calls[0]?.init.body).toBe('{"rev":2,"links":["a"]}');
    const error = await store
      .restore('n', 2, { ifMatch: '"old"' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RemoteStoreError);
    expect((error as RemoteStoreError).kind).toBe('conflict');
    expect((error as RemoteStoreError).op).toBe('restore');
  });

  it('asks for the diff and the deleted names', async () => {
    const { store, calls } = storeWith((url) =>
      url.includes('deleted')
        ? json(200, ['gone'])
        : json(200, { from: 1, to: 2, added: [] }),
    );
    expect(await store.listDeleted()).toEqual(['gone']);
    expect((await store.diff('n', 1, 2)).to).toBe(2);
    expect(calls.map((c) => c.url)).toEqual([
      'http://api.test/configs?deleted=true',
      'http://api.test/configs/n/diff?from=1&to=2',
    ]);
  });
});
