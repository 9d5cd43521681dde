/**
 * The client package against the real server (SQLite file, real HTTP): the ConfigStore contract for the
 * remote and hybrid stores, the remote store's error mapping, and the typed tRPC client.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IDBFactory } from 'fake-indexeddb';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '@linkconfig/server';
import type { RunningServer } from '@linkconfig/server';
import {
  createHybridStore,
  createIndexedDBStore,
  createLinkConfigClient,
  createRemoteStore,
  RemoteStoreError,
} from '../src/index.js';
import { runConfigStoreContract } from '../src/testing/config-store.contract.js';

const dir = mkdtempSync(join(tmpdir(), 'linkconfig-client-'));
let server: RunningServer;
let run = 0;

beforeAll(async () => {
  server = await startServer({
    port: 0,
    host: '127.0.0.1',
    databaseUrl: `sqlite:${join(dir, 'db.sqlite')}`,
    seed: 'none',
    apiToken: 'secret',
    logger: pino({ level: 'silent' }),
  });
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Each contract test gets its own name space on the shared server, cleaned up afterwards. */
async function clearServer(): Promise<void> {
  const store = createRemoteStore({ baseUrl: server.url, token: 'secret' });
  for (const name of await store.list()) await store.remove(name);
}

runConfigStoreContract('remote store against the real server', async () => {
  await clearServer();
  return { store: createRemoteStore({ baseUrl: server.url, token: 'secret' }) };
});

runConfigStoreContract(
  'hybrid store against the real server',
  async () => {
    await clearServer();
    const local = await createIndexedDBStore({
      indexedDB: new IDBFactory(),
      dbName: `hybrid-${++run}`,
    });
    const store = createHybridStore({
      local,
      remote: createRemoteStore({ baseUrl: server.url, token: 'secret' }),
      backoff: { baseMs: 1, capMs: 10 },
    });
    const other = createRemoteStore({ baseUrl: server.url, token: 'secret' });
    return {
      store,
      peer: {
        write: (name, config) => other.save(name, config),
        read: (name) => other.load(name),
      },
      settle: () => store.flush(),
      dispose: async () => {
        await store.flush().catch(() => undefined);
        store.close();
        local.close();
      },
    };
  },
  { twoWriters: true },
);

describe('remote store patch against the real server', () => {
  it('sends a JSON Merge Patch: 204 with the new ETag, 412 over a stale one, 404 for a missing name', async () => {
    await clearServer();
    const store = createRemoteStore({ baseUrl: server.url, token: 'secret' });
    const { etag } = await store.saveVersioned('p', {
      allLinks: {
        a: { url: 'https://a.example', label: 'A', tags: ['x'] },
        b: { url: 'https://b.example' },
      },
    });
    const patched = await store.patch(
      'p',
      { allLinks: { a: { label: 'New', tags: ['y'] }, b: null } },
      { ifMatch: etag ?? '' },
    );
    expect(patched.etag).toBeDefined();
    expect(patched.etag).not.toBe(etag);
    expect(await store.load('p')).toEqual({
      allLinks: { a: { url: 'https://a.example', label: 'New', tags: ['y'] } },
    });
    const stale = await store
      .patch('p', { settings: {} }, { ifMatch: etag ?? '' })
      .catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(RemoteStoreError);
    expect((stale as RemoteStoreError).kind).toBe('conflict');
    expect((stale as RemoteStoreError).etag).toBe(patched.etag);
    const missing = await store
      .patch('nothing-here', { allLinks: {} })
      .catch((e: unknown) => e);
    expect((missing as RemoteStoreError).status).toBe(404);
  });
});

describe('remote store errors from the real server', () => {
  it('rejects a write without the token with a RemoteStoreError carrying status and message', async () => {
    const store = createRemoteStore({ baseUrl: server.url });
    const error = await store
      .save('n', { allLinks: {} })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RemoteStoreError);
    expect((error as RemoteStoreError).status).toBe(401);
    expect((error as RemoteStoreError).message).toMatch(
      /needs a key \(Authorization: Bearer/,
    );
  });

  it('rejects an invalid config with the server’s message', async () => {
    const store = createRemoteStore({ baseUrl: server.url, token: 'secret' });
    const error = await store
      .save('n', { allLinks: { a: { url: 5 } } } as never)
      .catch((e: unknown) => e);
    expect((error as RemoteStoreError).status).toBe(400);
    expect((error as RemoteStoreError).message).toMatch(
      /allLinks\.a\.url must be a string/,
    );
  });
});

describe('replays are harmless against the real server (H8)', () => {
  it('a PUT delivered twice leaves the same state, and a DELETE of a missing name succeeds', async () => {
    const store = createRemoteStore({ baseUrl: server.url, token: 'secret' });
    const config = { allLinks: { a: { url: 'https://a', tags: ['t'] } } };
    await store.save('replayed', config);
    const first = await store.loadEntry('replayed');
    await store.save('replayed', config);
    const second = await store.loadEntry('replayed');
    expect(second?.config).toEqual(first?.config);
    expect(second?.meta.createdAt).toBe(first?.meta.createdAt);
    await store.remove('replayed');
    await expect(store.remove('replayed')).resolves.toBeUndefined();
    expect(await store.load('replayed')).toBeNull();
  });
});

describe('createLinkConfigClient', () => {
  it('calls the procedures over /trpc with inferred types', async () => {
    const client = createLinkConfigClient({
      baseUrl: `${server.url}/`,
      token: 'secret',
    });
    await client.configs.put.mutate({
      name: 'typed',
      config: { allLinks: { a: { url: 'https://a', tags: ['t'] } } },
    });
    const [entry, results] = await Promise.all([
      client.configs.get.query({ name: 'typed' }),
      client.expressions.query.mutate({
        expression: '.t',
        configName: 'typed',
      }),
    ]);
    expect(entry.config.allLinks['a']?.url).toBe('https://a');
    expect(results.results.map((r) => r.id)).toEqual(['a']);
    await client.configs.remove.mutate({ name: 'typed' });
  });
});
