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

describe('hybrid store status', () => {
  let local: IndexedDBConfigStore;
  let remote: ReturnType<typeof createScriptedRemote>;
  let store: HybridStore;

  beforeEach(async () => {
    local = await createIndexedDBStore({ indexedDB: new IDBFactory() });
    remote = createScriptedRemote();
    store = createHybridStore({ local, remote: remote.store, backoff: fast });
    await vi.waitFor(() => expect(store.getStatus().names).toEqual({}));
  });
  afterEach(() => {
    store.close();
    local.close();
  });

  it('carries per-name facts: a pending write with since when, then nothing once delivered', async () => {
    let release = () => undefined as void;
    remote.setScript((call) =>
      call.op === 'save' ? new Promise<void>((r) => (release = r)) : undefined,
    );
    const before = new Date().toISOString();
    await store.save('n', cfg('v1'));
    const { names, pending } = store.getStatus();
    expect(pending).toBe(1);
    expect(names['n']?.pending?.op).toBe('save');
    expect(names['n']!.pending!.since >= before).toBe(true);
    await vi.waitFor(() =>
      expect(remote.calls.some((c) => c.op === 'save')).toBe(true),
    );
    release();
    await store.flush();
    expect(store.getStatus()).toMatchObject({ pending: 0, names: {} });
  });

  it('carries a refused write as a dead letter with its status and error, until discarded', async () => {
    remote.setScript((call) =>
      call.op === 'save' ? remoteFailure(call, 400) : undefined,
    );
    await store.save('bad', cfg('x'));
    await store.flush().catch(() => undefined);
    const facts = store.getStatus().names['bad'];
    expect(facts?.pending).toBeUndefined();
    expect(facts?.deadLetter).toMatchObject({ status: 400 });
    expect(facts?.deadLetter?.error).toMatch(/400/);
    expect(typeof facts?.deadLetter?.since).toBe('string');
    await store.discardDeadLetter('bad');
    expect(store.getStatus()).toMatchObject({ deadLetters: 0, names: {} });
  });

  it('learns what a save changed from the transaction, without reading the sync state again', async () => {
    remote.setScript(() => new Promise<void>(() => undefined));
    const reads = {
      all: vi.spyOn(local.outbox, 'all'),
      deadLetters: vi.spyOn(local.outbox, 'deadLetters'),
      conflicts: vi.spyOn(local.outbox, 'conflicts'),
    };
    const seen: number[] = [];
    store.subscribe((status) => seen.push(status.pending));
    await store.save('n', cfg('v1'));
    // The status is up to date when save resolves.
    expect(store.getStatus().pending).toBe(1);
    expect(seen).toContain(1);
    await vi.waitFor(() => expect(remote.calls.length).toBeGreaterThan(0));
    // One read of the outbox: the delivery pass's own.
    expect(reads.all.mock.calls.length).toBeLessThanOrEqual(1);
    expect(reads.deadLetters).not.toHaveBeenCalled();
    expect(reads.conflicts).not.toHaveBeenCalled();
  });
});
