/**
 * Versions, conditional writes and the change feed of the client stores against the real server
 * (SQLite file, real HTTP), started in-process: ETags and 304 on reads, 412 conflicts, the feed with its
 * resume after a dropped stream, and two hybrid stores editing one config (issue 10).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IDBFactory } from 'fake-indexeddb';
import { pino } from 'pino';
import {
  afterAll,
  afterEach,
  beforeAll,
  describe,
  expect,
  it,
  vi,
} from 'vitest';
import type { LinkConfig } from '@linkconfig/shared';
import { loadSettings, startServer } from '@linkconfig/server';
import type { RunningServer, StartOptions } from '@linkconfig/server';
import {
  FlushError,
  RemoteStoreError,
  createHybridStore,
  createIndexedDBStore,
  createRemoteStore,
} from '../src/index.js';
import type {
  ChangeEvent,
  ChangeFeed,
  HybridStore,
  RemoteStoreOptions,
} from '../src/index.js';
import { createRecordingFetch } from '../src/testing/test-fetch.js';
import type { SentRequest } from '../src/testing/test-fetch.js';

const dir = mkdtempSync(join(tmpdir(), 'linkconfig-conditional-'));
const database = (file: string) => `sqlite:${join(dir, file)}`;
const quiet = pino({ level: 'silent' });

/** A server as the tests need it: local, empty, no rate limits or access log in the way. */
const start = (options: StartOptions) =>
  startServer({
    port: 0,
    host: '127.0.0.1',
    seed: 'none',
    rateLimit: false,
    accessLog: false,
    metrics: false,
    logger: quiet,
    ...options,
  });

let server: RunningServer;
/** Everything a test opened, closed after it (feeds, hybrid stores, local stores, extra servers). */
let cleanups: (() => Promise<void> | void)[] = [];
let run = 0;

beforeAll(async () => {
  server = await start({ databaseUrl: database('shared.sqlite') });
});
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const cfg = (label: string): LinkConfig => ({
  allLinks: { a: { url: 'https://a.example/', label, tags: ['t'] } },
});

/** A config name of its own for each test: they share one server. */
const fresh = (what: string) => `${what}-${++run}`;

/** A remote store on `target` whose requests are recorded. */
function remoteOn(
  target: RunningServer,
  extra: Partial<RemoteStoreOptions> = {},
) {
  const recorder = createRecordingFetch();
  const store = createRemoteStore({
    baseUrl: target.url,
    fetch: recorder.fetch,
    ...extra,
  });
  return { store, recorder };
}

/** The conflict a call rejected with (fails the test when it resolved or failed otherwise). */
async function conflictOf(call: Promise<unknown>): Promise<RemoteStoreError> {
  const error = await call.then(
    () => new Error('expected a 412 conflict, but the call succeeded'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RemoteStoreError);
  const failure = error as RemoteStoreError;
  expect({ kind: failure.kind, status: failure.status }).toEqual({
    kind: 'conflict',
    status: 412,
  });
  return failure;
}

/** Follows the feed of a store: the events it saw, its failures and resets. */
function watch(store: ReturnType<typeof remoteOn>['store']) {
  const events: ChangeEvent[] = [];
  const errors: RemoteStoreError[] = [];
  let resets = 0;
  const feed: ChangeFeed = store.watchChanges({
    onChange: (event) => events.push(event),
    onReset: () => void resets++,
    onError: (error) => errors.push(error),
    backoff: { baseMs: 20, capMs: 100 },
  });
  cleanups.push(() => feed.close());
  return {
    feed,
    events,
    errors,
    resets: () => resets,
    connected: () =>
      vi.waitFor(() => expect(feed.state).toBe('connected'), {
        timeout: 2000,
      }),
    /** The events about `name`, in order. */
    about: (name: string) => events.filter((e) => e.name === name),
  };
}

describe('versions on reads', () => {
  it('gives the ETag of the stored version, then 304 (not-modified) while it is unchanged', async () => {
    const { store, recorder } = remoteOn(server);
    const name = fresh('read');
    await store.save(name, cfg('one'));
    const found = await store.loadVersioned(name);
    expect(found).toMatchObject({
      status: 'found',
      entry: { config: cfg('one') },
    });
    const etag = found.status === 'found' ? found.etag : null;
    expect(etag).toMatch(/^"[^"]+"$/);

    expect(
      await store.loadVersioned(name, { ifNoneMatch: etag ?? '' }),
    ).toEqual({ status: 'not-modified', etag });
    const conditional = recorder.requests.at(-1);
    expect(conditional?.headers.get('If-None-Match')).toBe(etag);
  });

  it('answers the new version, not 304, once the config changed', async () => {
    const { store } = remoteOn(server);
    const name = fresh('read');
    await store.save(name, cfg('one'));
    const first = await store.loadVersioned(name);
    await store.save(name, cfg('two'));
    const again = await store.loadVersioned(name, {
      ifNoneMatch: first.status === 'found' ? (first.etag ?? '') : '',
    });
    expect(again).toMatchObject({
      status: 'found',
      entry: { config: cfg('two') },
    });
    expect(again.status === 'found' && again.etag).not.toBe(
      first.status === 'found' && first.etag,
    );
  });

  it('answers missing for a name the server does not have', async () => {
    const { store } = remoteOn(server);
    expect(await store.loadVersioned(fresh('nothing'))).toEqual({
      status: 'missing',
    });
  });
});

describe('conditional writes', () => {
  it('returns from saveVersioned the ETag that a later GET gives', async () => {
    const { store } = remoteOn(server);
    const name = fresh('write');
    const created = await store.saveVersioned(name, cfg('one'), {
      ifNoneMatch: '*',
    });
    expect(created.etag).toMatch(/^"[^"]+"$/);
    expect(await store.loadVersioned(name)).toMatchObject({
      etag: created.etag,
    });

    const updated = await store.saveVersioned(name, cfg('two'), {
      ifMatch: created.etag,
    });
    expect(updated.etag).not.toBe(created.etag);
    expect(await store.loadVersioned(name)).toMatchObject({
      etag: updated.etag,
      entry: { config: cfg('two') },
    });
  });

  it('refuses a save based on an older version with a conflict carrying the current ETag, and keeps the newer config', async () => {
    const mine = remoteOn(server);
    const theirs = remoteOn(server);
    const name = fresh('stale');
    const { etag: base } = await mine.store.saveVersioned(name, cfg('base'));
    const { etag: current } = await theirs.store.saveVersioned(
      name,
      cfg('theirs'),
      { ifMatch: base },
    );

    const conflict = await conflictOf(
      mine.store.saveVersioned(name, cfg('mine'), { ifMatch: base }),
    );
    expect(conflict.etag).toBe(current);
    expect(conflict.configName).toBe(name);
    expect(mine.recorder.requests.at(-1)?.headers.get('If-Match')).toBe(base);
    expect(await mine.store.load(name)).toEqual(cfg('theirs'));
  });

  it('refuses a remove based on an older version, and the config stays', async () => {
    const { store } = remoteOn(server);
    const name = fresh('stale-remove');
    const { etag: base } = await store.saveVersioned(name, cfg('base'));
    const { etag: current } = await store.saveVersioned(name, cfg('newer'));

    const conflict = await conflictOf(
      store.removeVersioned(name, { ifMatch: base }),
    );
    expect(conflict.etag).toBe(current);
    expect(await store.load(name)).toEqual(cfg('newer'));
    await store.removeVersioned(name, { ifMatch: current });
    expect(await store.load(name)).toBeNull();
  });

  it('refuses If-None-Match: * for a name that exists, with its ETag', async () => {
    const { store } = remoteOn(server);
    const name = fresh('exists');
    const { etag } = await store.saveVersioned(name, cfg('first'));
    const conflict = await conflictOf(
      store.saveVersioned(name, cfg('second'), { ifNoneMatch: '*' }),
    );
    expect(conflict.etag).toBe(etag);
    expect(await store.load(name)).toEqual(cfg('first'));
  });

  it('refuses If-Match for a name the server does not have, with a null ETag', async () => {
    const { store } = remoteOn(server);
    const name = fresh('missing');
    const { etag } = await store.saveVersioned(name, cfg('gone soon'));
    await store.remove(name);
    const onSave = await conflictOf(
      store.saveVersioned(name, cfg('again'), { ifMatch: etag }),
    );
    expect(onSave.etag).toBeNull();
    const onRemove = await conflictOf(
      store.removeVersioned(name, { ifMatch: '*' }),
    );
    expect(onRemove.etag).toBeNull();
    expect(await store.load(name)).toBeNull();
  });

  it('overwrites as before when the precondition does not reach the server (the header is what protects)', async () => {
    // The same stale write as above, with If-Match stripped on its way: last writer wins again. This is
    // what a client that ignores the new headers gets, and shows the conflict tests depend on the header.
    const { store, recorder } = remoteOn(server);
    const name = fresh('stripped');
    const { etag: base } = await store.saveVersioned(name, cfg('base'));
    await store.saveVersioned(name, cfg('theirs'));
    recorder.setEdit((request) => request.headers.delete('If-Match'));
    await store.saveVersioned(name, cfg('mine'), { ifMatch: base });
    expect(await store.load(name)).toEqual(cfg('mine'));
  });
});

describe('the change feed', () => {
  it('sees a write made through a second store, with the ETag that write got', async () => {
    const watcher = watch(remoteOn(server).store);
    await watcher.connected();
    const { store: writer } = remoteOn(server);
    const name = fresh('fed');

    const { etag } = await writer.saveVersioned(name, cfg('one'));
    await writer.remove(name);
    await vi.waitFor(() => expect(watcher.about(name)).toHaveLength(2), {
      timeout: 2000,
    });
    const [put, removed] = watcher.about(name);
    expect(put).toMatchObject({ name, op: 'put', etag });
    expect(removed).toMatchObject({ name, op: 'delete', etag: null });
    expect(Number(removed?.id)).toBeGreaterThan(Number(put?.id));
    expect(watcher.feed.lastEventId).toBe(removed?.id);
  });

  it('resumes after the server restarts (same port, same database) with what it missed, then live changes', async () => {
    const file = database(`restart-${++run}.sqlite`);
    let current = await start({ databaseUrl: file });
    cleanups.push(() => current.close());
    const port = current.port;
    const { store, recorder } = remoteOn(current);
    const watcher = watch(store);
    await watcher.connected();
    const writeOn = async (target: RunningServer, name: string) =>
      void (await createRemoteStore({ baseUrl: target.url }).save(
        name,
        cfg(name),
      ));

    await writeOn(current, 'before');
    await vi.waitFor(() => expect(watcher.events).toHaveLength(1), {
      timeout: 2000,
    });
    const seenBeforeDrop = watcher.feed.lastEventId;

    // The server goes away (its streams end); meanwhile another instance on the same database takes two
    // writes; then the server comes back on its old port.
    await current.close();
    await vi.waitFor(() => expect(watcher.feed.state).not.toBe('connected'));
    const other = await start({ databaseUrl: file });
    cleanups.push(() => other.close());
    await writeOn(other, 'missed-1');
    await writeOn(other, 'missed-2');
    await other.close();
    current = await start({ databaseUrl: file, port });
    // A reconnect that came while the server was shutting down got 503 with `Retry-After: 5`, which the
    // feed honours: allow for that wait.
    await vi.waitFor(() => expect(watcher.feed.state).toBe('connected'), {
      timeout: 10_000,
    });
    await writeOn(current, 'after');

    await vi.waitFor(() => expect(watcher.events).toHaveLength(4), {
      timeout: 2000,
    });
    expect(watcher.events.map((e) => e.name)).toEqual([
      'before',
      'missed-1',
      'missed-2',
      'after',
    ]);
    const ids = watcher.events.map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(4);
    expect(watcher.resets()).toBe(0);
    // The reconnect named where the feed had got to.
    const resumed = recorder.requests.filter(
      (r: SentRequest) =>
        r.path === '/events' && r.headers.get('Last-Event-ID') !== null,
    );
    expect(resumed.at(-1)?.headers.get('Last-Event-ID')).toBe(seenBeforeDrop);
  });
});

describe('hybrid stores on one server', () => {
  /** A hybrid store with its own IndexedDB, delivering to the shared server. */
  async function hybrid(options: { live?: boolean } = {}) {
    const local = await createIndexedDBStore({
      indexedDB: new IDBFactory(),
      dbName: `conditional-${++run}`,
    });
    const { store: remote, recorder } = remoteOn(server);
    const store: HybridStore = createHybridStore({
      local,
      remote,
      live: options.live,
      backoff: { baseMs: 5, capMs: 50 },
    });
    cleanups.push(() => {
      store.close();
      local.close();
    });
    return { store, local, recorder };
  }
  const puts = (requests: SentRequest[], name: string) =>
    requests.filter((r) => r.method === 'PUT' && r.path === `/configs/${name}`);

  it('reports an edit made against an older version as a conflict, and keep-local then wins on the server', async () => {
    const { store: rest } = remoteOn(server);
    const name = fresh('both');
    const { etag: base } = await rest.saveVersioned(name, cfg('base'));
    const a = await hybrid();
    const b = await hybrid();
    expect(await a.store.load(name)).toEqual(cfg('base'));
    expect(await b.store.load(name)).toEqual(cfg('base'));

    await a.store.save(name, cfg('from a'));
    await a.store.flush();
    const fromA = await rest.loadVersioned(name);
    await b.store.save(name, cfg('from b'));
    const refused = await b.store.flush().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(FlushError);
    expect((refused as FlushError).message).toContain(name);

    expect(await b.store.conflicts()).toMatchObject([
      { name, local: cfg('from b'), remote: cfg('from a') },
    ]);
    expect(b.store.getStatus().conflicts).toBe(1);
    expect(await rest.load(name)).toEqual(cfg('from a'));
    // B's edit was sent over the version it had read, and nothing overwrote A's.
    expect(puts(b.recorder.requests, name)[0]?.headers.get('If-Match')).toBe(
      base,
    );

    await b.store.resolveConflict(name, 'keep-local');
    await b.store.flush();
    expect(await rest.load(name)).toEqual(cfg('from b'));
    // Sent again over the version A wrote: B saw it, and chose to replace it.
    expect(puts(b.recorder.requests, name)[1]?.headers.get('If-Match')).toBe(
      fromA.status === 'found' ? fromA.etag : 'A’s write is missing',
    );
    expect(await b.store.conflicts()).toEqual([]);
    expect(b.store.getStatus().conflicts).toBe(0);
  });

  it('counts its own write as delivered when the answer was lost, even with a URL the server sanitizes (H19)', async () => {
    // Issue 17, item 10: saved offline with a `javascript:` URL, reloaded, back online; the server
    // stores the write but its answer is lost, so the retry meets 412 and finds the server's copy,
    // which the server hands out sanitized (`about:blank`). That is this store's own write.
    const name = fresh('own-sanitized');
    const mine: LinkConfig = {
      allLinks: {
        x: { url: 'javascript:alert(1)', label: 'x', tags: ['t'] },
        y: { url: 'https://y.example/', meta: { iconUrl: 'data:,x' } },
      },
    };
    const indexedDB = new IDBFactory();
    const dbName = `own-write-${++run}`;
    const errors: unknown[] = [];
    const open = async (fetch: typeof globalThis.fetch) => {
      const local = await createIndexedDBStore({ indexedDB, dbName });
      const store = createHybridStore({
        local,
        remote: createRemoteStore({ baseUrl: server.url, fetch }),
        backoff: { baseMs: 5, capMs: 50 },
        onRemoteError: (_op, _name, error) => errors.push(error),
      });
      cleanups.push(() => {
        store.close();
        local.close();
      });
      return { store, local };
    };

    // Offline: nothing reaches the server.
    const offline = await open(() =>
      Promise.reject(new TypeError('Failed to fetch')),
    );
    await offline.store.save(name, mine);
    offline.store.close();
    offline.local.close();

    // Reloaded and online, but the answer to the first PUT is lost after the server stored it.
    let lost = 0;
    const { store } = await open(async (input, init) => {
      const response = await globalThis.fetch(input, init);
      if (init?.method === 'PUT' && lost++ === 0) {
        await response.arrayBuffer();
        throw new TypeError('Failed to fetch');
      }
      return response;
    });
    await store.flush({ timeoutMs: 5000 });

    expect(lost).toBe(2);
    expect(await store.conflicts()).toEqual([]);
    expect(store.getStatus()).toMatchObject({
      pending: 0,
      conflicts: 0,
      names: {},
    });
    const { store: rest } = remoteOn(server);
    expect(await rest.load(name)).toEqual({
      allLinks: {
        x: { url: 'about:blank', label: 'x', tags: ['t'] },
        y: { url: 'https://y.example/', meta: { iconUrl: 'about:blank' } },
      },
    });
    // Reported: the failed deliveries (the lost answer among them), never a conflict.
    expect(new Set(errors.map((e) => (e as RemoteStoreError).kind))).toEqual(
      new Set(['network']),
    );
  });

  it('with live: true, picks up a write made through REST within a second, and a remove', async () => {
    const { store: rest } = remoteOn(server);
    const name = fresh('live');
    await rest.save(name, cfg('one'));
    const { store, local } = await hybrid({ live: true });
    expect(await store.load(name)).toEqual(cfg('one'));
    await vi.waitFor(() => expect(store.getStatus().live).toBe('connected'), {
      timeout: 2000,
    });
    const heard: string[] = [];
    store.subscribeChanges((changed) => heard.push(changed));

    // Read the local side directly: a read through the hybrid store would refresh the name by itself.
    await rest.save(name, cfg('two'));
    await vi.waitFor(
      async () => expect(await local.load(name)).toEqual(cfg('two')),
      { timeout: 1000 },
    );
    await rest.remove(name);
    await vi.waitFor(async () => expect(await local.load(name)).toBeNull(), {
      timeout: 1000,
    });
    expect(heard.filter((n) => n === name).length).toBeGreaterThanOrEqual(2);
  });
});

describe('with READ_TOKEN and API_TOKEN set', () => {
  let secured: RunningServer;
  beforeAll(async () => {
    const settings = loadSettings(
      {
        API_TOKEN: 'api-secret',
        READ_TOKEN: 'read-secret',
        DATABASE_URL: database('secured.sqlite'),
        PORT: '0',
        HOST: '127.0.0.1',
        SEED: 'none',
        ACCESS_LOG: 'off',
        METRICS: 'off',
      },
      [],
    );
    if (settings === 'help') throw new Error('no settings');
    secured = await startServer({ ...settings, logger: quiet });
  });
  afterAll(async () => {
    await secured.close();
  });

  it('sends the token with the feed and with conditional writes', async () => {
    const reader = remoteOn(secured, { token: () => 'read-secret' });
    const writer = remoteOn(secured, { token: 'api-secret' });
    const anonymous = remoteOn(secured);
    const watcher = watch(reader.store);
    const refused = watch(anonymous.store);
    await watcher.connected();
    await vi.waitFor(() => expect(refused.errors).toHaveLength(1), {
      timeout: 2000,
    });
    expect(refused.errors[0]).toMatchObject({ status: 401 });

    const name = fresh('secured');
    const { etag: created } = await writer.store.saveVersioned(
      name,
      cfg('one'),
      { ifNoneMatch: '*' },
    );
    const { etag: updated } = await writer.store.saveVersioned(
      name,
      cfg('two'),
      { ifMatch: created },
    );
    // A stale version is refused as a conflict, not as unauthorized: the token was accepted first.
    expect(
      (
        await conflictOf(
          writer.store.removeVersioned(name, { ifMatch: created }),
        )
      ).etag,
    ).toBe(updated);
    await vi.waitFor(() => expect(watcher.about(name)).toHaveLength(2), {
      timeout: 2000,
    });
    expect(watcher.about(name).map((e) => e.etag)).toEqual([created, updated]);

    const feedRequest = reader.recorder.requests.find(
      (r) => r.path === '/events',
    );
    expect(feedRequest?.headers.get('Authorization')).toBe(
      'Bearer read-secret',
    );
    const conditional = writer.recorder.requests.filter(
      (r) => r.headers.has('If-Match') || r.headers.has('If-None-Match'),
    );
    expect(conditional).toHaveLength(3);
    for (const request of conditional)
      expect(request.headers.get('Authorization')).toBe('Bearer api-secret');
    // Without the token, neither works.
    expect(
      await anonymous.store
        .saveVersioned(name, cfg('x'), { ifMatch: updated })
        .catch((e: unknown) => (e as RemoteStoreError).status),
    ).toBe(401);
  });
});
