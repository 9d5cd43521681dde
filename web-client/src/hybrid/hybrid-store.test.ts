import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LinkConfig } from '@linkconfig/shared';
import type { RemoteOperation } from '../config-store.js';
import { createIndexedDBStore } from '../indexeddb/indexeddb-store.js';
import { createMemoryStore } from '../memory/memory-store.js';
import type { IndexedDBConfigStore } from '../indexeddb/indexeddb-store.js';
import { runConfigStoreContract } from '../testing/config-store.contract.js';
import { createScriptedRemote, remoteFailure } from '../testing/test-remote.js';
import { createHybridStore } from './hybrid-store.js';
import type { HybridStore } from './hybrid-store.js';

const cfg = (label: string): LinkConfig => ({
  allLinks: { a: { url: 'https://a.example', label } },
});
const fast = { baseMs: 1, capMs: 4 };

/** Another client of the scripted server, for the two-writer promises. */
const peerOf = (remote: ReturnType<typeof createScriptedRemote>) => ({
  write: async (name: string, config: LinkConfig) =>
    void remote.writeDirect(name, config),
  read: async (name: string) => remote.config(name),
});

runConfigStoreContract(
  'hybrid store (IndexedDB + scripted remote)',
  async () => {
    const local = await createIndexedDBStore({ indexedDB: new IDBFactory() });
    const remote = createScriptedRemote();
    const store = createHybridStore({
      local,
      remote: remote.store,
      backoff: fast,
    });
    return {
      store,
      peer: peerOf(remote),
      settle: () => store.flush(),
      dispose: () => {
        store.close();
        local.close();
      },
    };
  },
  { twoWriters: true },
);

runConfigStoreContract(
  'hybrid store (memory store + scripted remote)',
  async () => {
    const remote = createScriptedRemote();
    const store = createHybridStore({
      local: createMemoryStore(),
      remote: remote.store,
      indexedDB: new IDBFactory(),
      backoff: fast,
    });
    return {
      store,
      peer: peerOf(remote),
      settle: () => store.flush(),
      dispose: () => store.close(),
    };
  },
  { twoWriters: true },
);

runConfigStoreContract(
  'hybrid store (IndexedDB + plain remote without versions)',
  async () => {
    const local = await createIndexedDBStore({ indexedDB: new IDBFactory() });
    const store = createHybridStore({
      local,
      remote: createScriptedRemote({}, { versioned: false }).store,
      backoff: fast,
    });
    return {
      store,
      dispose: () => {
        store.close();
        local.close();
      },
    };
  },
);

describe('createHybridStore', () => {
  let local: IndexedDBConfigStore;
  let remote: ReturnType<typeof createScriptedRemote>;
  let errors: { op: RemoteOperation; name: string; error: unknown }[];
  let store: HybridStore;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);

  beforeEach(async () => {
    process.on('unhandledRejection', onUnhandled);
    local = await createIndexedDBStore({ indexedDB: new IDBFactory() });
    remote = createScriptedRemote();
    errors = [];
    store = make();
  });
  afterEach(() => {
    store.close();
    local.close();
    process.off('unhandledRejection', onUnhandled);
    expect(unhandled).toEqual([]);
  });

  function make(): HybridStore {
    return createHybridStore({
      local,
      remote: remote.store,
      backoff: fast,
      onRemoteError: (op, name, error) => errors.push({ op, name, error }),
    });
  }
  const puts = (name: string) =>
    remote.calls.filter((c) => c.op === 'save' && c.name === name);

  it('resolves save once local and outbox are written, before the network answers (H14)', async () => {
    let release = () => undefined as void;
    remote.setScript((call) =>
      call.op === 'save' ? new Promise<void>((r) => (release = r)) : undefined,
    );
    await store.save('n', cfg('v1'));
    expect(await local.load('n')).toEqual(cfg('v1'));
    expect((await local.outbox.all()).map((e) => e.name)).toEqual(['n']);
    expect(remote.data.has('n')).toBe(false);
    release();
    await store.flush();
    expect(remote.config('n')).toEqual(cfg('v1'));
    expect(await local.outbox.all()).toEqual([]);
  });

  it('publishes whether the server is reachable after remote reads, not only writes', async () => {
    const seen: (boolean | null)[] = [];
    store.subscribe((s) => seen.push(s.remoteReachable));
    remote.setScript((call) =>
      call.op === 'list' ? remoteFailure(call, 0) : undefined,
    );
    await store.list();
    await vi.waitFor(() =>
      expect(store.getStatus().remoteReachable).toBe(false),
    );
    remote.setScript(() => undefined);
    await store.list();
    await vi.waitFor(() =>
      expect(store.getStatus().remoteReachable).toBe(true),
    );
    expect(seen).toContain(false);
  });

  it('coalesces offline saves of one name into one PUT of the last value (H4)', async () => {
    remote.setScript((call) =>
      call.op === 'save' ? remoteFailure(call, 0) : undefined,
    );
    for (const v of ['1', '2', '3', '4']) await store.save('n', cfg(v));
    expect(await local.outbox.all()).toHaveLength(1);
    remote.setScript(() => undefined);
    remote.calls.length = 0;
    await store.flush();
    expect(puts('n')).toHaveLength(1);
    expect(puts('n')[0]?.config).toEqual(cfg('4'));
  });

  it('reports a failing write once, not on every retry (H14, rule 3)', async () => {
    let failures = 0;
    remote.setScript((call) =>
      call.op === 'save' && failures++ < 3
        ? remoteFailure(call, 503)
        : undefined,
    );
    await store.save('n', cfg('x'));
    await store.flush();
    expect(failures).toBe(4);
    expect(errors.filter((e) => e.op === 'save')).toHaveLength(1);
    expect(errors[0]).toMatchObject({ op: 'save', name: 'n' });
  });

  it('save then remove offline leaves the name absent everywhere and never resurrected (H5)', async () => {
    remote.writeDirect('n', cfg('old'));
    await store.load('n'); // the store knows the server's version it removes
    remote.setScript((call) =>
      call.op === 'save' || call.op === 'remove'
        ? remoteFailure(call, 0)
        : undefined,
    );
    await store.save('n', cfg('new'));
    await store.remove('n');
    // The server still has the old value; a read during the pending delete must not bring it back.
    expect(await store.load('n')).toBeNull();
    expect(await store.list()).toEqual([]);
    remote.setScript(() => undefined);
    await store.flush();
    expect(remote.data.has('n')).toBe(false);
    expect(await store.load('n')).toBeNull();
  });

  it('remove then save offline ends with the saved value and no DELETE after the last PUT (H6)', async () => {
    remote.writeDirect('n', cfg('old'));
    await store.load('n');
    remote.setScript((call) =>
      call.op !== 'load' && call.op !== 'list'
        ? remoteFailure(call, 0)
        : undefined,
    );
    await store.remove('n');
    await store.save('n', cfg('final'));
    remote.setScript(() => undefined);
    remote.calls.length = 0;
    await store.flush();
    expect(remote.config('n')).toEqual(cfg('final'));
    const writes = remote.calls
      .filter((c) => c.name === 'n' && c.op !== 'load')
      .map((c) => c.op);
    expect(writes).toEqual(['save']);
  });

  it('keeps a newer save made while an older PUT is in flight (at-least-once, per-entry token)', async () => {
    let release = () => undefined as void;
    remote.setScript((call) =>
      call.op === 'save' && call.config?.allLinks['a']?.label === 'v1'
        ? new Promise<void>((r) => (release = r))
        : undefined,
    );
    await store.save('n', cfg('v1'));
    await vi.waitFor(() => expect(puts('n')).toHaveLength(1));
    await store.save('n', cfg('v2'));
    release();
    await store.flush();
    expect(remote.config('n')).toEqual(cfg('v2'));
    expect(await local.outbox.all()).toEqual([]);
  });

  it('retries transient failures, pauses on 401 and dead-letters other 4xx without blocking others (H3)', async () => {
    remote.setScript((call) => {
      if (call.op !== 'save') return undefined;
      if (call.name === 'bad') return remoteFailure(call, 400);
      return undefined;
    });
    await store.save('bad', cfg('x'));
    await store.save('good', cfg('y'));
    await store.flush().catch(() => undefined);
    expect(remote.config('good')).toEqual(cfg('y'));
    expect((await store.deadLetters()).map((d) => [d.name, d.status])).toEqual([
      ['bad', 400],
    ]);
    expect(errors.map((e) => [e.op, e.name])).toEqual([['save', 'bad']]);
    await expect(store.flush()).rejects.toMatchObject({ name: 'FlushError' });

    // 403: the key may not write this name; a dead letter that says so, not a pause.
    remote.setScript((call) =>
      call.op === 'save' && call.name === 'theirs'
        ? remoteFailure(call, 403)
        : undefined,
    );
    await store.save('theirs', cfg('t'));
    await store.flush().catch(() => undefined);
    expect(store.getStatus()).toMatchObject({ paused: false, pending: 0 });
    expect(
      (await store.deadLetters())
        .filter((d) => d.name === 'theirs')
        .map((d) => [d.status, d.error]),
    ).toEqual([[403, 'this key may not write theirs']]);
    await store.discardDeadLetter('theirs');

    remote.setScript((call) =>
      call.op === 'save' ? remoteFailure(call, 401) : undefined,
    );
    await store.save('locked', cfg('z'));
    await expect(store.flush()).rejects.toThrow(/paused/);
    expect(store.getStatus()).toMatchObject({ paused: true, pending: 1 });
    expect((await local.outbox.all()).map((e) => e.name)).toEqual(['locked']);
    remote.setScript(() => undefined);
    store.resume();
    await store.discardDeadLetter('bad');
    await store.flush();
    expect(remote.config('locked')).toEqual(cfg('z'));
    expect(store.getStatus()).toMatchObject({
      paused: false,
      pending: 0,
      deadLetters: 0,
    });
  });

  it('fetches and caches on first load, then serves local and refreshes in the background (rules 1, 2)', async () => {
    remote.writeDirect('n', cfg('server'));
    expect(await store.load('n')).toEqual(cfg('server'));
    expect(await local.load('n')).toEqual(cfg('server'));
    remote.writeDirect('n', cfg('newer'));
    const changed: string[] = [];
    store.subscribeChanges((name) => changed.push(name));
    expect(await store.load('n')).toEqual(cfg('server'));
    await vi.waitFor(() => expect(changed).toEqual(['n']));
    expect(await store.load('n')).toEqual(cfg('newer'));
  });

  it('never lets a background refresh overwrite a pending local change (H15)', async () => {
    remote.writeDirect('n', cfg('server'));
    await store.load('n');
    remote.setScript((call) =>
      call.op === 'save' ? remoteFailure(call, 0) : undefined,
    );
    await store.save('n', cfg('mine'));
    remote.writeDirect('n', cfg('someone else'));
    await store.load('n');
    await new Promise((r) => setTimeout(r, 20));
    expect(await local.load('n')).toEqual(cfg('mine'));
  });

  it('answers null and reports the error when a first load cannot reach the remote (H15)', async () => {
    remote.setScript((call) =>
      call.op === 'load' ? remoteFailure(call, 0) : undefined,
    );
    expect(await store.load('unknown')).toBeNull();
    expect(errors.map((e) => [e.op, e.name])).toEqual([['load', 'unknown']]);
    expect(await local.load('unknown')).toBeNull();
  });

  it('lists local and remote names, and local only when the remote fails', async () => {
    remote.writeDirect('r', cfg('r'));
    await store.save('l', cfg('l'));
    expect(await store.list()).toEqual(['l', 'r']);
    remote.setScript((call) =>
      call.op === 'list' ? remoteFailure(call, 500) : undefined,
    );
    expect(await store.list()).toEqual(['l']);
  });

  it('delivers what a closed store left in the outbox when a new one starts (restart)', async () => {
    remote.setScript(() => remoteFailure({ op: 'save', name: 'n' }, 0));
    await store.save('n', cfg('survives'));
    store.close();
    remote.setScript(() => undefined);
    store = make();
    await store.flush();
    expect(remote.config('n')).toEqual(cfg('survives'));
  });

  it('ignores a slow refresh answered after a newer local version was saved and delivered', async () => {
    store.close();
    store = createHybridStore({
      local,
      remote: remote.store,
      backoff: fast,
      onConflict: () => 'keep-local',
    });
    remote.writeDirect('n', cfg('v1'));
    expect(await store.load('n')).toEqual(cfg('v1'));
    remote.writeDirect('n', cfg('v3'));
    let answer = () => undefined as void;
    let slow = true;
    remote.setScript((call) => {
      if (call.op !== 'load' || !slow) return undefined;
      slow = false;
      return new Promise<void>((r) => (answer = r));
    });
    // The cached v1 comes back at once; its background refresh is slow.
    expect(await store.load('n')).toEqual(cfg('v1'));
    await store.save('n', cfg('v4'));
    await store.flush();
    expect(remote.config('n')).toEqual(cfg('v4'));
    answer(); // the server's v3 arrives now, too late
    await new Promise((r) => setTimeout(r, 20));
    expect(await local.load('n')).toEqual(cfg('v4'));
    expect(await store.load('n')).toEqual(cfg('v4'));
  });

  it('ignores a slow refresh after a newer delivered save on a remote without versions too', async () => {
    const plain = createScriptedRemote({}, { versioned: false });
    store.close();
    store = createHybridStore({ local, remote: plain.store, backoff: fast });
    plain.writeDirect('n', cfg('v1'));
    await store.load('n');
    plain.writeDirect('n', cfg('v3'));
    let answer = () => undefined as void;
    plain.setScript((call) =>
      call.op === 'load' ? new Promise<void>((r) => (answer = r)) : undefined,
    );
    await store.load('n');
    await store.save('n', cfg('v4'));
    await store.flush();
    answer();
    await new Promise((r) => setTimeout(r, 20));
    expect(await local.load('n')).toEqual(cfg('v4'));
  });

  it('sends nothing while a Retry-After holds: later saves and reads wait their turn', async () => {
    remote.writeDirect('cached', cfg('x'));
    await store.load('cached');
    remote.setScript((call) =>
      call.op === 'save'
        ? remoteFailure(call, 429, { retryAfterMs: 60_000 })
        : undefined,
    );
    await store.save('a', cfg('a'));
    await vi.waitFor(() => expect(puts('a')).toHaveLength(1));
    const before = remote.calls.length;
    await store.save('b', cfg('b'));
    await store.remove('a');
    await store.sync();
    expect(await store.load('cached')).toEqual(cfg('x'));
    expect(await store.list()).toEqual(['b', 'cached']);
    await new Promise((r) => setTimeout(r, 30));
    expect(remote.calls.slice(before)).toEqual([]);
    expect(store.getStatus()).toMatchObject({ pending: 2 });
  });

  it('keeps the behaviour of a plain remote: no preconditions, last writer wins, no live updates', async () => {
    const plain = createScriptedRemote({}, { versioned: false });
    store.close();
    store = createHybridStore({
      local,
      remote: plain.store,
      backoff: fast,
      live: true,
    });
    plain.writeDirect('n', cfg('base'));
    await store.load('n');
    plain.writeDirect('n', cfg('theirs'));
    await store.save('n', cfg('mine'));
    await store.flush();
    expect(plain.config('n')).toEqual(cfg('mine'));
    expect(plain.calls.every((c) => c.condition === undefined)).toBe(true);
    expect(store.getStatus().live).toBe('off');
    expect(await store.conflicts()).toEqual([]);
  });

  it('drops a local copy the server no longer has when listing, but never unsent work', async () => {
    for (const name of ['gone', 'edited', 'kept']) {
      remote.writeDirect(name, cfg(name));
      await store.load(name);
    }
    remote.setScript((call) =>
      call.op === 'save' ? remoteFailure(call, 0) : undefined,
    );
    await store.save('edited', cfg('mine'));
    for (const name of ['gone', 'edited']) remote.removeDirect(name);
    const changed: string[] = [];
    store.subscribeChanges((name) => changed.push(name));
    expect(await store.list()).toEqual(['edited', 'kept']);
    expect(await local.load('gone')).toBeNull();
    expect(await local.load('edited')).toEqual(cfg('mine'));
    expect(changed).toEqual(['gone']);
  });
});
