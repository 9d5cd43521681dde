import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import type { LinkConfig } from '@linkconfig/shared';
import { createIndexedDBStore } from '../indexeddb/indexeddb-store.js';
import { createMemoryStore } from '../memory/memory-store.js';
import { createScriptedRemote } from '../testing/test-remote.js';
import { EditBases } from './edits.js';
import { createHybridStore } from './hybrid-store.js';
import type { HybridStore } from './hybrid-store.js';

const cfg = (
  label: string,
  extra: Record<string, string> = {},
): LinkConfig => ({
  allLinks: {
    a: { url: 'https://a.example', label },
    ...Object.fromEntries(
      Object.entries(extra).map(([id, l]) => [
        id,
        { url: `https://${id}.example`, label: l },
      ]),
    ),
  },
});

/** A page's store over one browser database; `reload` makes a new one over the same database. */
async function browser() {
  const factory = new IDBFactory();
  const remote = createScriptedRemote();
  const open: { close(): void }[] = [];
  const start = async (): Promise<HybridStore> => {
    const local = await createIndexedDBStore({
      indexedDB: factory,
      dbName: 'drafts',
    });
    const store = createHybridStore({ local, remote: remote.store });
    open.push(store, local);
    return store;
  };
  const closeAll = () => {
    for (const item of open.splice(0)) item.close();
  };
  return {
    remote,
    start,
    async reload(): Promise<HybridStore> {
      closeAll();
      return start();
    },
    closeAll,
  };
}

describe('drafts kept by the hybrid store', () => {
  it('survive a new page over the same browser database with the base the store recorded, and are neither sent nor cached', async () => {
    const page = await browser();
    try {
      const store = await page.start();
      expect(await store.startEdit('home', cfg('saved'))).toBeNull();
      expect(store.editBase('home')).toEqual(cfg('saved'));
      await store.keepDraft('home', cfg('edited'));

      // A reload: new connections, new stores, the same database.
      const reloaded = await page.reload();
      expect(reloaded.editBase('home')).toBeUndefined();
      expect(await reloaded.draftOf('home')).toEqual({
        draft: cfg('edited'),
        base: cfg('saved'),
      });
      // Opened again over a newer version: the edit goes on from the version it started from.
      expect(await reloaded.startEdit('home', cfg('newer'))).toEqual({
        draft: cfg('edited'),
        base: cfg('saved'),
      });
      expect(reloaded.editBase('home')).toEqual(cfg('saved'));
      // A draft is not a write: no local copy, nothing queued, nothing sent.
      expect(await reloaded.load('home')).toBeNull();
      expect(reloaded.getStatus().pending).toBe(0);
      expect(page.remote.calls.filter((call) => call.op === 'save')).toEqual(
        [],
      );
      await reloaded.dropDraft('home');
      expect(await reloaded.draftOf('home')).toBeNull();
    } finally {
      page.closeAll();
    }
  });

  it('are kept only for an edit that started, and the store keeps its own copy of the base', async () => {
    const page = await browser();
    try {
      const store = await page.start();
      await expect(store.keepDraft('home', cfg('edited'))).rejects.toThrow(
        /startEdit/,
      );
      const shown = cfg('saved');
      await store.startEdit('home', shown);
      shown.allLinks['a']!.label = 'changed by the page';
      expect(store.editBase('home')).toEqual(cfg('saved'));
    } finally {
      page.closeAll();
    }
  });

  it('a save moves the base, in memory and in the kept draft; a removal ends the edit', async () => {
    const page = await browser();
    try {
      const store = await page.start();
      await store.startEdit('home', cfg('v1'));
      await store.keepDraft('home', cfg('v2', { b: 'B' }));
      await store.save('home', cfg('v2'));
      expect(store.editBase('home')).toEqual(cfg('v2'));
      expect((await store.draftOf('home'))?.base).toEqual(cfg('v2'));
      // A save of another name moves nothing and starts no edit.
      await store.save('other', cfg('x'));
      expect(store.editBase('other')).toBeUndefined();

      const reloaded = await page.reload();
      expect(await reloaded.draftOf('home')).toEqual({
        draft: cfg('v2', { b: 'B' }),
        base: cfg('v2'),
      });
      await reloaded.startEdit('home', cfg('v2'));
      await reloaded.remove('home');
      expect(reloaded.editBase('home')).toBeUndefined();
    } finally {
      page.closeAll();
    }
  });

  it('a clean merge moves the base to the version merged in; a conflicting one only once settled', async () => {
    const page = await browser();
    try {
      const store = await page.start();
      await store.startEdit('home', cfg('v1'));
      await store.keepDraft('home', cfg('mine'));
      // Theirs added a link, mine changed the label: clean.
      const clean = store.mergeIntoEdit(
        'home',
        cfg('mine'),
        cfg('v1', { b: 'B' }),
      );
      expect(clean).toEqual({ merged: cfg('mine', { b: 'B' }), conflicts: [] });
      expect(store.editBase('home')).toEqual(cfg('v1', { b: 'B' }));

      // Theirs changed the same label: a conflict, and the base stays.
      const conflicting = store.mergeIntoEdit(
        'home',
        cfg('mine', { b: 'B' }),
        cfg('theirs', { b: 'B' }),
      );
      expect(conflicting.conflicts).toHaveLength(1);
      expect(conflicting.conflicts[0]).toMatchObject({
        path: ['allLinks', 'a', 'label'],
        base: 'v1',
        local: 'mine',
        remote: 'theirs',
      });
      expect(store.editBase('home')).toEqual(cfg('v1', { b: 'B' }));
      // The person decided: the edit now starts from theirs (a change from elsewhere taken in).
      await store.settleEdit('home', cfg('theirs', { b: 'B' }));
      expect(store.editBase('home')).toEqual(cfg('theirs', { b: 'B' }));

      const reloaded = await page.reload();
      expect((await reloaded.draftOf('home'))?.base).toEqual(
        cfg('theirs', { b: 'B' }),
      );
    } finally {
      page.closeAll();
    }
  });

  it('a store made anew with the same bases (another token) keeps the open edit', async () => {
    const factory = new IDBFactory();
    const remote = createScriptedRemote();
    const local = await createIndexedDBStore({ indexedDB: factory });
    const editBases = new EditBases();
    const first = createHybridStore({ local, remote: remote.store, editBases });
    await first.startEdit('home', cfg('v1'));
    first.close();
    const second = createHybridStore({
      local,
      remote: remote.store,
      editBases,
    });
    try {
      expect(second.editBase('home')).toEqual(cfg('v1'));
      await second.keepDraft('home', cfg('mine'));
      expect(await second.draftOf('home')).toEqual({
        draft: cfg('mine'),
        base: cfg('v1'),
      });
    } finally {
      second.close();
      local.close();
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
    await first.startEdit('new', cfg('shown'));
    await first.keepDraft('new', cfg('draft'));
    first.close();
    const second = createHybridStore({
      local: createMemoryStore(),
      ...options,
    });
    try {
      expect(await second.draftOf('new')).toEqual({
        draft: cfg('draft'),
        base: cfg('shown'),
      });
    } finally {
      second.close();
    }
  });
});
