import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LinkConfig } from '@linkconfig/shared';
import { createIndexedDBStore } from '../indexeddb/indexeddb-store.js';
import type { IndexedDBConfigStore } from '../indexeddb/indexeddb-store.js';
import type { HybridStatus } from './hybrid-status.js';
import { createScriptedRemote, remoteFailure } from '../testing/test-remote.js';
import { createHybridStore } from './hybrid-store.js';
import type { HybridStore } from './hybrid-store.js';

const cfg = (label: string): LinkConfig => ({
  allLinks: { a: { url: 'https://a.example', label } },
});

describe('hybrid store live updates', () => {
  let local: IndexedDBConfigStore;
  let remote: ReturnType<typeof createScriptedRemote>;
  let store: HybridStore;
  let changed: string[];

  beforeEach(async () => {
    local = await createIndexedDBStore({ indexedDB: new IDBFactory() });
    remote = createScriptedRemote();
    remote.writeDirect('cached', cfg('one'));
    store = createHybridStore({
      local,
      remote: remote.store,
      backoff: { baseMs: 1, capMs: 4 },
      live: true,
    });
    await vi.waitFor(() => expect(store.getStatus().live).toBe('connected'));
    expect(await store.load('cached')).toEqual(cfg('one'));
    // Let the first check after connecting finish before the tests count anything.
    await new Promise((r) => setTimeout(r, 30));
    changed = [];
    store.subscribeChanges((name) => changed.push(name));
  });
  afterEach(() => {
    store.close();
    local.close();
  });

  const loads = () => remote.calls.filter((c) => c.op === 'load').length;

  it('says in the status whether live updates are connected', async () => {
    const seen: HybridStatus['live'][] = [];
    store.subscribe((s) => seen.push(s.live));
    store.close();
    expect(seen.at(-1)).toBe('off');
    expect(remote.watching).toBe(false);
  });

  it('refreshes a cached name as soon as another client changes it', async () => {
    remote.writeDirect('cached', cfg('two'));
    await vi.waitFor(async () =>
      expect(await local.load('cached')).toEqual(cfg('two')),
    );
    expect(changed).toEqual(['cached']);
  });

  it('drops a cached name another client removed', async () => {
    remote.removeDirect('cached');
    await vi.waitFor(async () => expect(await local.load('cached')).toBeNull());
    expect(await store.list()).toEqual([]);
    expect(changed).toEqual(['cached']);
  });

  it('keeps a removed name that has a change waiting, and finds the conflict when it is sent', async () => {
    remote.setScript((call) =>
      call.op === 'save' ? remoteFailure(call, 0) : undefined,
    );
    await store.save('cached', cfg('mine'));
    remote.removeDirect('cached');
    await new Promise((r) => setTimeout(r, 20));
    expect(await local.load('cached')).toEqual(cfg('mine'));
    remote.setScript(() => undefined);
    await expect(store.flush()).rejects.toThrow(/conflicts/);
    expect((await store.conflicts())[0]).toMatchObject({
      local: cfg('mine'),
      remote: null,
    });
  });

  it('does not fetch its own writes back when they come through the feed', async () => {
    const before = loads();
    await store.save('cached', cfg('mine'));
    await store.flush();
    await store.save('fresh', cfg('new'));
    await store.flush();
    await new Promise((r) => setTimeout(r, 20));
    expect(loads()).toBe(before);
    expect(changed).toEqual([]);
  });

  it('tells listeners about names it does not cache without fetching them', async () => {
    const before = loads();
    remote.writeDirect('elsewhere', cfg('x'));
    await vi.waitFor(() => expect(changed).toEqual(['elsewhere']));
    expect(loads()).toBe(before);
    expect(await local.load('elsewhere')).toBeNull();
  });

  it('re-lists after a reset: removed names go, changed ones are refreshed', async () => {
    remote.writeDirect('other', cfg('o1'));
    await store.load('other');
    store.close();
    // Changes made while nobody listened.
    remote.removeDirect('other');
    remote.writeDirect('cached', cfg('two'));
    store = createHybridStore({
      local,
      remote: remote.store,
      backoff: { baseMs: 1, capMs: 4 },
      live: true,
    });
    await vi.waitFor(async () => {
      expect(await local.load('cached')).toEqual(cfg('two'));
      expect(await local.load('other')).toBeNull();
    });
    // A change the feed lost: only a reset tells about it.
    remote.data.delete('cached');
    remote.resetFeeds();
    await vi.waitFor(async () => expect(await local.list()).toEqual([]));
  });
});
