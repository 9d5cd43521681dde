import { IDBFactory } from 'fake-indexeddb';
import { openDB } from 'idb';
import type { IDBPDatabase } from 'idb';
import { describe, expect, it } from 'vitest';
import { runConfigStoreContract } from '../testing/config-store.contract.js';
import { DB_VERSION } from './config-db.js';
import { createIndexedDBStore } from './indexeddb-store.js';
import { LocalStoreError } from './local-store-error.js';

runConfigStoreContract('IndexedDB store', async () => {
  const store = await createIndexedDBStore({ indexedDB: new IDBFactory() });
  return { store, dispose: () => store.close() };
});

const config = { allLinks: { a: { url: 'https://a.example' } } };

describe('createIndexedDBStore', () => {
  it('keeps v1 data when the schema is upgraded (H18)', async () => {
    const factory = new IDBFactory();
    const meta = {
      createdAt: '2020-01-01T00:00:00.000Z',
      updatedAt: '2020-01-02T00:00:00.000Z',
    };
    // A database as version 1 of this package left it: only the configs store.
    const v1 = await openDBIn(factory, 'legacy', {
      version: 1,
      upgrade: (db) =>
        void db.createObjectStore('configs', { keyPath: 'name' }),
    });
    await v1.put('configs', { name: 'kept', config, meta });
    v1.close();
    const store = await createIndexedDBStore({
      indexedDB: factory,
      dbName: 'legacy',
    });
    expect(await store.loadEntry('kept')).toEqual({ config, meta });
    expect(await store.outbox.all()).toEqual([]);
    await store.save('new', config);
    expect(await store.list()).toEqual(['kept', 'new']);
    store.close();
  });

  it('keeps queued writes and dead letters of a v2 database when it adds versions and conflicts (H18)', async () => {
    const factory = new IDBFactory();
    const v2 = await openDBIn(factory, 'v2', {
      version: 2,
      upgrade: (db) => {
        db.createObjectStore('configs', { keyPath: 'name' });
        db.createObjectStore('outbox', { keyPath: 'name' });
        db.createObjectStore('dead-letters', { keyPath: 'name' });
      },
    });
    const queued = {
      name: 'q',
      op: 'save',
      config,
      token: 't',
      queuedAt: '2020-01-01T00:00:00.000Z',
    };
    await v2.put('outbox', queued);
    await v2.put('dead-letters', {
      ...queued,
      name: 'd',
      status: 400,
      error: 'bad',
      failedAt: '2020-01-01T00:00:00.000Z',
    });
    v2.close();
    const store = await createIndexedDBStore({
      indexedDB: factory,
      dbName: 'v2',
    });
    expect(await store.outbox.all()).toEqual([queued]);
    expect((await store.outbox.deadLetters()).map((d) => d.name)).toEqual([
      'd',
    ]);
    expect(await store.outbox.conflicts()).toEqual([]);
    expect(await store.outbox.versions()).toEqual([]);
    store.close();
  });

  it('stores a dangerous URL as saved and hands it out sanitized', async () => {
    const factory = new IDBFactory();
    const store = await createIndexedDBStore({
      indexedDB: factory,
      dbName: 'raw',
    });
    const bad = { allLinks: { x: { url: 'javascript:alert(1)' } } };
    await store.save('x', bad);
    expect((await store.load('x'))?.allLinks['x']?.url).toBe('about:blank');
    store.close();
    const raw = await openDBIn(factory, 'raw');
    expect((await raw.get('configs', 'x'))?.config).toEqual(bad);
    raw.close();
  });

  it('rejects with a typed error when IndexedDB is missing', async () => {
    const saved = globalThis.indexedDB;
    Reflect.deleteProperty(globalThis, 'indexedDB');
    try {
      await expect(createIndexedDBStore()).rejects.toMatchObject({
        name: 'LocalStoreError',
        code: 'unavailable',
      });
    } finally {
      globalThis.indexedDB = saved;
    }
  });

  it('rejects with open-timeout when an open never settles, and reopens on the next call (H17)', async () => {
    const real = new IDBFactory();
    let hang = true;
    const factory = {
      open: (...args: Parameters<IDBFactory['open']>) => {
        const request = real.open(...args);
        // A request whose outcome nobody ever hears about: an open that never settles.
        if (hang) request.addEventListener = () => undefined;
        return request;
      },
      deleteDatabase: real.deleteDatabase.bind(real),
      cmp: real.cmp.bind(real),
      databases: real.databases.bind(real),
    } as IDBFactory;
    await expect(
      createIndexedDBStore({ indexedDB: factory, openTimeoutMs: 20 }),
    ).rejects.toMatchObject({
      code: 'open-timeout',
    });
    hang = false;
    const store = await createIndexedDBStore({
      indexedDB: factory,
      openTimeoutMs: 20,
    });
    await store.save('ok', config);
    expect(await store.load('ok')).toEqual(config);
    store.close();
  });

  it('rejects a save when the quota is exceeded and reopens afterwards (H17)', async () => {
    const factory = new IDBFactory();
    const store = await createIndexedDBStore({ indexedDB: factory });
    const original = IDBObjectStore.prototype.put;
    IDBObjectStore.prototype.put = function quota(): IDBRequest<IDBValidKey> {
      throw new DOMException('full', 'QuotaExceededError');
    };
    try {
      const failure = await store.save('big', config).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(LocalStoreError);
      expect(failure).toMatchObject({ code: 'quota-exceeded' });
    } finally {
      IDBObjectStore.prototype.put = original;
    }
    expect(await store.load('big')).toBeNull();
    await store.save('big', config);
    expect(await store.load('big')).toEqual(config);
    store.close();
  });

  it('reopens after the connection was closed under it (H17)', async () => {
    const store = await createIndexedDBStore({ indexedDB: new IDBFactory() });
    await store.save('a', config);
    store.close();
    expect(await store.load('a')).toEqual(config);
    store.close();
  });

  it('closes its connection when another tab upgrades the database (H18)', async () => {
    const factory = new IDBFactory();
    const store = await createIndexedDBStore({
      indexedDB: factory,
      dbName: 'shared',
    });
    await store.save('a', config);
    // Our open connection must not block the other tab's upgrade (it would hang otherwise).
    // (A version above this package's own: 3 when it was written, before the drafts store came.)
    const newer = await openDBIn(factory, 'shared', {
      version: DB_VERSION + 1,
    });
    expect(newer.version).toBe(DB_VERSION + 1);
    newer.close();
  });
});

/** Opens a database of `factory` with idb (idb reads the global factory when it opens). */
async function openDBIn(
  factory: IDBFactory,
  name: string,
  options: { version?: number; upgrade?: (db: IDBPDatabase) => void } = {},
): Promise<IDBPDatabase> {
  const { version, upgrade } = options;
  const saved = globalThis.indexedDB;
  globalThis.indexedDB = factory;
  try {
    return await openDB(name, version, upgrade ? { upgrade } : {});
  } finally {
    globalThis.indexedDB = saved;
  }
}
