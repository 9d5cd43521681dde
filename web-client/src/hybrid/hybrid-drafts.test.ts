import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import type { LinkConfig } from '@linkconfig/shared';
import { createIndexedDBStore } from '../indexeddb/indexeddb-store.js';
import { createMemoryStore } from '../memory/memory-store.js';
import { createScriptedRemote } from '../testing/test-remote.js';
import { createHybridStore } from './hybrid-store.js';

const cfg = (label: string): LinkConfig => ({
  allLinks: { a: { url: 'https://a.example', label } },
});

describe('drafts kept by the hybrid store', () => {
  it('survive a new page over the same browser database, and are neither sent nor cached', async () => {
    const factory = new IDBFactory();
    const dbName = 'drafts';
    const remote = createScriptedRemote();
    const local = await createIndexedDBStore({ indexedDB: factory, dbName });
    const store = createHybridStore({ local, remote: remote.store });
    await store.keepDraft('home', cfg('edited'), cfg('saved'));
    store.close();
    local.close();

    // A reload: new connections, new stores, the same database.
    const again = await createIndexedDBStore({ indexedDB: factory, dbName });
    const reloaded = createHybridStore({ local: again, remote: remote.store });
    try {
      expect(await reloaded.draftOf('home')).toEqual({
        draft: cfg('edited'),
        base: cfg('saved'),
      });
      // A draft is not a write: no local copy, nothing queued, nothing sent.
      expect(await again.load('home')).toBeNull();
      expect(reloaded.getStatus().pending).toBe(0);
      expect(remote.calls.filter((call) => call.op === 'save')).toEqual([]);
      await reloaded.dropDraft('home');
      expect(await reloaded.draftOf('home')).toBeNull();
    } finally {
      reloaded.close();
      again.close();
    }
  });

  it('are kept beside the sync state when the local store is not IndexedDB', async () => {
    const factory = new IDBFactory();
    const remote = createScriptedRemote();
    const options = {
      remote: remote.store,
      indexedDB: factory,
      outboxDbName: 'memory-drafts',
    };
    const first = createHybridStore({ local: createMemoryStore(), ...options });
    await first.keepDraft('new', cfg('draft'), null);
    first.close();
    const second = createHybridStore({
      local: createMemoryStore(),
      ...options,
    });
    try {
      expect(await second.draftOf('new')).toEqual({
        draft: cfg('draft'),
        base: null,
      });
    } finally {
      second.close();
    }
  });
});
