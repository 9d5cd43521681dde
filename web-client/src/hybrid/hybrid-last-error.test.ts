import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LinkConfig } from '@linkconfig/shared';
import { createIndexedDBStore } from '../indexeddb/indexeddb-store.js';
import type { IndexedDBConfigStore } from '../indexeddb/indexeddb-store.js';
import { createScriptedRemote, remoteFailure } from '../testing/test-remote.js';
import { createHybridStore } from './hybrid-store.js';
import type { HybridStore } from './hybrid-store.js';

const cfg = (label: string): LinkConfig => ({
  allLinks: { a: { url: 'https://a.example', label } },
});
const fast = { baseMs: 1, capMs: 4 };

describe('hybrid store status: lastError after recovery (H20)', () => {
  let local: IndexedDBConfigStore;
  let remote: ReturnType<typeof createScriptedRemote>;
  let store: HybridStore;

  beforeEach(async () => {
    local = await createIndexedDBStore({ indexedDB: new IDBFactory() });
    remote = createScriptedRemote({
      cached: {
        config: cfg('server'),
        meta: {
          createdAt: '2030-01-01T00:00:00.000Z',
          updatedAt: '2030-01-01T00:00:00.000Z',
        },
      },
    });
    store = createHybridStore({ local, remote: remote.store, backoff: fast });
    await vi.waitFor(() => expect(store.getStatus().names).toEqual({}));
  });
  afterEach(() => {
    store.close();
    local.close();
  });

  it('clears lastError once a later delivery gets through', async () => {
    let failing = true;
    remote.setScript((call) =>
      failing && call.op === 'save' ? remoteFailure(call, 503) : undefined,
    );
    await store.save('n', cfg('v1'));
    await vi.waitFor(() =>
      expect(store.getStatus().lastError).toMatch(/scripted 503/),
    );
    const seen: (string | null)[] = [];
    store.subscribe((status) => seen.push(status.lastError));

    failing = false;
    await store.flush();
    expect(store.getStatus()).toMatchObject({ pending: 0, lastError: null });
    // Subscribers heard about it.
    expect(seen.at(-1)).toBeNull();
  });

  it('clears a read failure once a later read succeeds, with nothing waiting', async () => {
    let failing = true;
    remote.setScript((call) =>
      failing && call.op === 'load' ? remoteFailure(call, 500) : undefined,
    );
    expect(await store.load('cached')).toBeNull();
    expect(store.getStatus().lastError).toMatch(/scripted 500/);

    failing = false;
    expect(await store.load('cached')).toEqual(cfg('server'));
    expect(store.getStatus().lastError).toBeNull();
  });

  it('keeps it while a delivery still fails, even when reads succeed', async () => {
    remote.setScript((call) =>
      call.op === 'save' ? remoteFailure(call, 500) : undefined,
    );
    await store.save('n', cfg('v1'));
    await vi.waitFor(() =>
      expect(store.getStatus().lastError).toMatch(/scripted 500/),
    );
    expect(await store.load('cached')).toEqual(cfg('server'));
    expect(store.getStatus().lastError).toMatch(/scripted 500/);
    expect(store.getStatus().pending).toBe(1);
  });
});
