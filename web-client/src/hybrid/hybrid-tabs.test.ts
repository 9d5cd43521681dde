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

/** Two tabs of one origin: each with its own connection and store over the same browser database. */
describe('hybrid store status across tabs', () => {
  const locals: IndexedDBConfigStore[] = [];
  const stores: HybridStore[] = [];
  let remote: ReturnType<typeof createScriptedRemote>;
  let watcher: HybridStore;
  let writer: HybridStore;

  const tab = async (factory: IDBFactory, dbName: string) => {
    const local = await createIndexedDBStore({ indexedDB: factory, dbName });
    const store = createHybridStore({
      local,
      remote: remote.store,
      backoff: fast,
    });
    locals.push(local);
    stores.push(store);
    await vi.waitFor(() => expect(store.getStatus().names).toEqual({}));
    return store;
  };

  beforeEach(async () => {
    remote = createScriptedRemote();
    const factory = new IDBFactory();
    const dbName = `tabs-${Math.random().toString(36).slice(2)}`;
    watcher = await tab(factory, dbName);
    writer = await tab(factory, dbName);
  });
  afterEach(() => {
    for (const store of stores.splice(0)) store.close();
    for (const local of locals.splice(0)) local.close();
  });

  it('shows a write that another tab set aside as a dead letter, and its discarding', async () => {
    remote.setScript((call) =>
      call.op === 'save' ? remoteFailure(call, 400) : undefined,
    );
    await writer.save('bad', cfg('x'));
    await writer.flush().catch(() => undefined);
    expect(writer.getStatus().deadLetters).toBe(1);
    await vi.waitFor(() =>
      expect(watcher.getStatus().names['bad']?.deadLetter).toMatchObject({
        status: 400,
      }),
    );
    expect(watcher.getStatus()).toMatchObject({ pending: 0, deadLetters: 1 });
    await writer.discardDeadLetter('bad');
    await vi.waitFor(() =>
      expect(watcher.getStatus()).toMatchObject({ deadLetters: 0, names: {} }),
    );
  });

  it('shows a conflict that another tab’s delivery met', async () => {
    remote.writeDirect('c', cfg('theirs'));
    await writer.save('c', cfg('mine'));
    await writer.flush().catch(() => undefined);
    expect(writer.getStatus().conflicts).toBe(1);
    await vi.waitFor(() =>
      expect(watcher.getStatus().names['c']?.conflict).toBeDefined(),
    );
    expect(watcher.getStatus().conflicts).toBe(1);
    expect((await watcher.conflicts()).map((c) => c.name)).toEqual(['c']);
  });

  it('reads again only the name another tab wrote', async () => {
    const reads = {
      all: vi.spyOn(locals[0]!.outbox, 'all'),
      deadLetters: vi.spyOn(locals[0]!.outbox, 'deadLetters'),
      conflicts: vi.spyOn(locals[0]!.outbox, 'conflicts'),
    };
    remote.setScript(() => new Promise<void>(() => undefined));
    await writer.save('n', cfg('v1'));
    await vi.waitFor(() =>
      expect(watcher.getStatus().names['n']?.pending?.op).toBe('save'),
    );
    expect(reads.all).not.toHaveBeenCalled();
    expect(reads.deadLetters).not.toHaveBeenCalled();
    expect(reads.conflicts).not.toHaveBeenCalled();
  });
});
