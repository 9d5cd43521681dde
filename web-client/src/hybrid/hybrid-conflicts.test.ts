import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LinkConfig } from '@linkconfig/shared';
import type { RemoteOperation } from '../config-store.js';
import { createIndexedDBStore } from '../indexeddb/indexeddb-store.js';
import type { IndexedDBConfigStore } from '../indexeddb/indexeddb-store.js';
import { RemoteStoreError } from '../remote/remote-store-error.js';
import { createScriptedRemote, remoteFailure } from '../testing/test-remote.js';
import type { ConflictHandler } from './conflicts.js';
import { createHybridStore } from './hybrid-store.js';
import type { HybridStore } from './hybrid-store.js';

const cfg = (label: string): LinkConfig => ({
  allLinks: { a: { url: 'https://a.example', label } },
});

describe('hybrid store versions and conflicts (issue 10)', () => {
  let local: IndexedDBConfigStore;
  let remote: ReturnType<typeof createScriptedRemote>;
  let errors: { op: RemoteOperation; name: string; error: unknown }[];
  let store: HybridStore;

  beforeEach(async () => {
    local = await createIndexedDBStore({ indexedDB: new IDBFactory() });
    remote = createScriptedRemote();
    errors = [];
    store = make();
  });
  afterEach(() => {
    store.close();
    local.close();
  });

  function make(onConflict?: ConflictHandler): HybridStore {
    store?.close();
    return createHybridStore({
      local,
      remote: remote.store,
      backoff: { baseMs: 1, capMs: 4 },
      onConflict,
      onRemoteError: (op, name, error) => errors.push({ op, name, error }),
    });
  }
  const writes = (name: string) =>
    remote.calls.filter(
      (c) => c.name === name && (c.op === 'save' || c.op === 'remove'),
    );

  /** The store caches the server's "n"; then another client changes it there. */
  async function staleCopy(): Promise<void> {
    remote.writeDirect('n', cfg('base'));
    expect(await store.load('n')).toEqual(cfg('base'));
    remote.writeDirect('n', cfg('theirs'));
  }

  it('takes a 412 from a write that already got through (its answer lost) as delivered, not as a conflict', async () => {
    remote.writeDirect('n', cfg('base'));
    await store.load('n');
    let lost = false;
    remote.setScript((call) => {
      if (call.op !== 'save' || lost) return undefined;
      // The PUT reaches the server, which applies it; the answer never comes back.
      lost = true;
      remote.writeDirect('n', cfg('one'));
      return remoteFailure(call, 0);
    });
    await store.save('n', cfg('one'));
    await store.flush();
    expect(await store.conflicts()).toEqual([]);
    expect(store.getStatus().conflicts).toBe(0);
    expect(remote.config('n')).toEqual(cfg('one'));
    // The retry met the version it had made: 412, then recognised as its own.
    expect(writes('n')).toHaveLength(2);
    expect(errors.map((e) => e.error)).not.toContainEqual(
      expect.objectContaining({ kind: 'conflict' }),
    );
    // The next save is based on the server's version, so it goes through.
    await store.save('n', cfg('two'));
    await store.flush();
    expect(remote.config('n')).toEqual(cfg('two'));
  });

  it('still reports a conflict when the server holds something else', async () => {
    await staleCopy();
    await store.save('n', cfg('mine'));
    await expect(store.flush()).rejects.toThrow();
    expect((await store.conflicts()).map((c) => c.name)).toEqual(['n']);
  });

  it('sends If-Match with the version a save is based on, and the new ETag with the next one', async () => {
    remote.writeDirect('n', cfg('base'));
    const base = remote.data.get('n')?.etag;
    await store.load('n');
    await store.save('n', cfg('one'));
    await store.flush();
    const after = remote.data.get('n')?.etag;
    await store.save('n', cfg('two'));
    await store.flush();
    expect(writes('n').map((c) => c.condition)).toEqual([
      { ifMatch: base },
      { ifMatch: after },
    ]);
    expect(remote.config('n')).toEqual(cfg('two'));
  });

  it('creates a name it never saw with If-None-Match: *', async () => {
    expect(await store.load('new')).toBeNull();
    await store.save('new', cfg('mine'));
    await store.flush();
    expect(writes('new').map((c) => c.condition)).toEqual([
      { ifNoneMatch: '*' },
    ]);
  });

  it('re-bases a save made while the previous PUT travelled, so it does not conflict with itself', async () => {
    let release = () => undefined as void;
    remote.setScript((call) =>
      call.op === 'save' && call.config?.allLinks['a']?.label === 'one'
        ? new Promise<void>((r) => (release = r))
        : undefined,
    );
    await store.save('n', cfg('one'));
    await vi.waitFor(() => expect(writes('n')).toHaveLength(1));
    await store.save('n', cfg('two'));
    release();
    await store.flush();
    expect(remote.config('n')).toEqual(cfg('two'));
    expect(await store.conflicts()).toEqual([]);
    expect(writes('n')[1]?.condition).toEqual({
      ifMatch: remote.events.find((e) => e.name === 'n')?.etag,
    });
  });

  it('turns a 412 into a waiting conflict: both values kept, counted, reported, and flush names it', async () => {
    await staleCopy();
    await store.save('n', cfg('mine'));
    await expect(store.flush()).rejects.toThrow(/"n" conflicts/);
    expect(remote.config('n')).toEqual(cfg('theirs'));
    expect(await store.load('n')).toEqual(cfg('mine'));
    expect(await store.conflicts()).toEqual([
      expect.objectContaining({
        name: 'n',
        local: cfg('mine'),
        remote: cfg('theirs'),
        remoteUpdatedAt: remote.data.get('n')?.entry.meta.updatedAt,
      }),
    ]);
    await vi.waitFor(() =>
      expect(store.getStatus()).toMatchObject({ conflicts: 1, pending: 0 }),
    );
    expect(errors.map((e) => [e.op, e.name])).toEqual([['save', 'n']]);
    expect(errors[0]?.error).toBeInstanceOf(RemoteStoreError);
    expect(errors[0]?.error).toMatchObject({ kind: 'conflict', status: 412 });
  });

  it('keep-local sends the local value again over the server version', async () => {
    await staleCopy();
    await store.save('n', cfg('mine'));
    await store.flush().catch(() => undefined);
    await store.resolveConflict('n', 'keep-local');
    await store.flush();
    expect(remote.config('n')).toEqual(cfg('mine'));
    expect(await store.conflicts()).toEqual([]);
    expect(store.getStatus().conflicts).toBe(0);
  });

  it('take-remote drops the local change and tells change listeners', async () => {
    await staleCopy();
    await store.save('n', cfg('mine'));
    await store.flush().catch(() => undefined);
    const changed: string[] = [];
    store.subscribeChanges((name) => changed.push(name));
    await store.resolveConflict('n', 'take-remote');
    expect(await local.load('n')).toEqual(cfg('theirs'));
    expect(changed).toEqual(['n']);
    await store.flush();
    expect(writes('n')).toHaveLength(1);
  });

  it('asks onConflict at once and sends a merged config', async () => {
    const asked: { name: string; local: unknown; remote: unknown }[] = [];
    store = make(async (name, conflict) => {
      asked.push({ name, local: conflict.local, remote: conflict.remote });
      return cfg('merged');
    });
    await staleCopy();
    await store.save('n', cfg('mine'));
    await store.flush();
    expect(asked).toEqual([
      { name: 'n', local: cfg('mine'), remote: cfg('theirs') },
    ]);
    expect(remote.config('n')).toEqual(cfg('merged'));
    expect(await local.load('n')).toEqual(cfg('merged'));
  });

  it('keeps the conflict waiting when onConflict fails, and reports it', async () => {
    store = make(() => {
      throw new Error('dialog closed');
    });
    await staleCopy();
    await store.save('n', cfg('mine'));
    await expect(store.flush()).rejects.toThrow(/conflicts/);
    expect(await store.conflicts()).toHaveLength(1);
    expect(errors.map((e) => (e.error as Error).message)).toContain(
      'dialog closed',
    );
  });

  it('rejects a resolution that is not a choice', async () => {
    await staleCopy();
    await store.save('n', cfg('mine'));
    await store.flush().catch(() => undefined);
    await expect(
      store.resolveConflict('n', 'both' as never),
    ).rejects.toBeInstanceOf(TypeError);
    expect(await store.conflicts()).toHaveLength(1);
  });

  it('makes a save of a name in conflict its new local side, sending nothing', async () => {
    await staleCopy();
    await store.save('n', cfg('mine'));
    await store.flush().catch(() => undefined);
    await store.save('n', cfg('mine again'));
    await store.sync();
    expect(writes('n')).toHaveLength(1);
    expect((await store.conflicts())[0]?.local).toEqual(cfg('mine again'));
    await store.resolveConflict('n', 'keep-local');
    await store.flush();
    expect(remote.config('n')).toEqual(cfg('mine again'));
  });

  it('turns a remove of a version someone changed into a conflict, and keep-local removes it', async () => {
    await staleCopy();
    await store.remove('n');
    await store.flush().catch(() => undefined);
    expect(remote.config('n')).toEqual(cfg('theirs'));
    expect(await store.conflicts()).toEqual([
      expect.objectContaining({ local: null, remote: cfg('theirs') }),
    ]);
    expect(await store.load('n')).toBeNull();
    expect(await store.list()).toEqual([]);
    await store.resolveConflict('n', 'keep-local');
    await store.flush();
    expect(remote.data.has('n')).toBe(false);
  });

  it('treats an edit of a config someone removed as a conflict with nothing on the server', async () => {
    remote.writeDirect('n', cfg('base'));
    await store.load('n');
    remote.removeDirect('n');
    await store.save('n', cfg('mine'));
    await store.flush().catch(() => undefined);
    expect(await store.conflicts()).toEqual([
      expect.objectContaining({ local: cfg('mine'), remote: null }),
    ]);
    await store.resolveConflict('n', 'keep-local');
    await store.flush();
    expect(writes('n').at(-1)?.condition).toEqual({ ifNoneMatch: '*' });
    expect(remote.config('n')).toEqual(cfg('mine'));
  });

  it('keeps conflicts across a restart and offers them to onConflict then', async () => {
    await staleCopy();
    await store.save('n', cfg('mine'));
    await store.flush().catch(() => undefined);
    store = make(() => 'keep-local');
    await vi.waitFor(async () =>
      expect(remote.config('n')).toEqual(cfg('mine')),
    );
    expect(await store.conflicts()).toEqual([]);
  });

  it('removes nothing it never saw: a name created and removed here that someone else created there is a conflict', async () => {
    remote.setScript((call) =>
      call.op === 'save' ? remoteFailure(call, 0) : undefined,
    );
    await store.save('draft', cfg('x'));
    await store.remove('draft');
    remote.setScript(() => undefined);
    await store.flush(); // nothing on the server: nothing to do
    expect(writes('draft').filter((c) => c.op === 'remove')).toEqual([]);
    remote.setScript((call) =>
      call.op === 'save' ? remoteFailure(call, 0) : undefined,
    );
    await store.save('draft', cfg('y'));
    await store.remove('draft');
    remote.setScript(() => undefined);
    remote.writeDirect('draft', cfg('someone else'));
    await expect(store.flush()).rejects.toThrow(/"draft" conflicts/);
    expect(writes('draft').filter((c) => c.op === 'remove')).toEqual([]);
    expect(remote.config('draft')).toEqual(cfg('someone else'));
    expect(await store.conflicts()).toEqual([
      expect.objectContaining({ local: null, remote: cfg('someone else') }),
    ]);
  });
});
