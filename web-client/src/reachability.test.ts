import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it, vi } from 'vitest';
import { createIndexedDBStore } from './indexeddb/indexeddb-store.js';
import { createHybridStore } from './hybrid/hybrid-store.js';
import { Reachability } from './reachability.js';
import { createScriptedRemote, remoteFailure } from './testing/test-remote.js';

describe('Reachability', () => {
  it('is the one model a hybrid store and the app share', async () => {
    const reachability = new Reachability();
    const changes: [boolean, boolean | null][] = [];
    reachability.subscribe((now, before) => changes.push([now, before]));
    const local = await createIndexedDBStore({ indexedDB: new IDBFactory() });
    const remote = createScriptedRemote();
    remote.setScript((call) =>
      call.op === 'save'
        ? remoteFailure(call, 0, { kind: 'network' })
        : undefined,
    );
    const store = createHybridStore({
      local,
      remote: remote.store,
      reachability,
      backoff: { baseMs: 1000, capMs: 1000 },
    });
    try {
      await store.save('n', { allLinks: {} });
      await vi.waitFor(() => expect(reachability.current).toBe(false));
      expect(store.getStatus().remoteReachable).toBe(false);
      // The app's own call got an answer: the store's status says so too.
      reachability.record(true);
      expect(store.getStatus().remoteReachable).toBe(true);
      expect(changes).toEqual([
        [false, null],
        [true, false],
      ]);
    } finally {
      store.close();
      local.close();
    }
  });
});
