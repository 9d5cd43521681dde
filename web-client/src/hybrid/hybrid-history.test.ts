import { IDBFactory } from 'fake-indexeddb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryStore } from '../memory/memory-store.js';
import { Reachability } from '../reachability.js';
import { createRemoteStore } from '../remote/remote-store.js';
import { createScriptedRemote } from '../testing/test-remote.js';
import { HistoryUnavailableError } from './hybrid-history.js';
import { createHybridStore } from './hybrid-store.js';
import type { HybridStore } from './hybrid-store.js';

const entry = (label: string) => ({
  config: { allLinks: { a: { url: 'https://a.example', label } } },
  meta: {
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  },
});

/** A server holding `n` (label `now`), whose restore makes it `restored`. */
function server() {
  let current = entry('now');
  const fetch = vi.fn(
    async (input: string | URL | Request, init?: RequestInit) => {
      const url = String(input);
      const json = (body: unknown, headers: Record<string, string> = {}) =>
        new Response(JSON.stringify(body), {
          status: 200,
          headers: { 'Content-Type': 'application/json', ...headers },
        });
      if (url.endsWith('/restore') && init?.method === 'POST') {
        current = entry('restored');
        return json({ rev: 3, etag: '"3-x"' }, { ETag: '"3-x"' });
      }
      if (url.endsWith('/history')) return json({ revisions: [], next: null });
      if (url.endsWith('/configs/n')) return json(current, { ETag: '"2-x"' });
      if (url.endsWith('/configs')) return json(['n']);
      return new Response(JSON.stringify({ error: 'no' }), { status: 404 });
    },
  );
  return createRemoteStore({
    baseUrl: 'http://api.test',
    fetch: fetch as unknown as typeof globalThis.fetch,
  });
}

let store: HybridStore | undefined;
afterEach(() => store?.close());

describe('hybrid store history', () => {
  it('asks the server while it is reachable, and refreshes the local copy after a restore', async () => {
    const reachability = new Reachability();
    store = createHybridStore({
      local: createMemoryStore(),
      remote: server(),
      indexedDB: new IDBFactory(),
      reachability,
    });
    expect(await store.history('n')).toEqual({ revisions: [], next: null });
    expect((await store.load('n'))?.allLinks['a']?.label).toBe('now');
    expect(await store.restore('n', 1)).toEqual({ rev: 3, etag: '"3-x"' });
    expect((await store.load('n'))?.allLinks['a']?.label).toBe('restored');
  });

  it('rejects clearly, without a request, while the server is unreachable', async () => {
    const reachability = new Reachability();
    reachability.record(false);
    store = createHybridStore({
      local: createMemoryStore(),
      remote: server(),
      indexedDB: new IDBFactory(),
      reachability,
    });
    const calls: (() => Promise<unknown> | undefined)[] = [
      () => store?.history('n'),
      () => store?.loadRevision('n', 1),
      () => store?.restore('n', 1),
    ];
    for (const call of calls) {
      const error = await Promise.resolve()
        .then(call)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HistoryUnavailableError);
      expect((error as Error).message).toMatch(/offline/);
    }
  });

  it('rejects when the remote keeps no history', async () => {
    store = createHybridStore({
      local: createMemoryStore(),
      remote: createScriptedRemote().store,
      indexedDB: new IDBFactory(),
    });
    await expect(store.history('n')).rejects.toBeInstanceOf(
      HistoryUnavailableError,
    );
  });
});
