import { IDBFactory } from 'fake-indexeddb';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ConfigEntry, LinkConfig } from '@linkconfig/shared';
import { resolveCache } from './cache-rule.js';
import type { CacheFacts } from './cache-rule.js';
import { createIndexedDBStore } from './indexeddb-store.js';
import type { IndexedDBConfigStore } from './indexeddb-store.js';

const cfg = (label: string): LinkConfig => ({
  allLinks: { a: { url: 'https://a.example', label } },
});
const entry = (label: string, updatedAt: string): ConfigEntry => ({
  config: cfg(label),
  meta: { createdAt: '2030-01-01T00:00:00.000Z', updatedAt },
});
const T1 = '2030-01-01T00:00:01.000Z';
const T2 = '2030-01-01T00:00:02.000Z';

describe('outbox', () => {
  let store: IndexedDBConfigStore;
  let n = 0;
  const write = (name: string, config: LinkConfig | null) =>
    store.outbox.queue({
      name,
      config,
      token: `t${++n}`,
      queuedAt: new Date(Date.parse(T1) + n).toISOString(),
    });

  beforeEach(async () => {
    store = await createIndexedDBStore({ indexedDB: new IDBFactory() });
  });

  it('bases a write on the cached version, a new name on "absent", and keeps the base of a replaced entry', async () => {
    await store.outbox.cacheRemote({
      name: 'known',
      entry: entry('server', T1),
      etag: '"e1"',
      seenRev: 0,
    });
    await write('known', cfg('mine'));
    await write('known', cfg('mine again'));
    await write('new', cfg('x'));
    const entries = await store.outbox.all();
    expect(entries.map((e) => [e.name, e.baseEtag])).toEqual([
      ['known', '"e1"'],
      ['new', null],
    ]);
    expect(await store.load('known')).toEqual(cfg('mine again'));
  });

  it('leaves the base unknown for a local copy kept from before versions were tracked', async () => {
    await store.save('legacy', cfg('old'));
    await write('legacy', cfg('edit'));
    expect((await store.outbox.get('legacy'))?.baseEtag).toBeUndefined();
  });

  it('deletes an acknowledged entry and re-bases one that replaced it in flight', async () => {
    await write('n', cfg('one'));
    const [first] = await store.outbox.all();
    await write('n', cfg('two'));
    await store.outbox.acknowledge(first!, '"e2"');
    expect((await store.outbox.get('n'))?.baseEtag).toBe('"e2"');
    const [second] = await store.outbox.all();
    await store.outbox.acknowledge(second!, '"e3"');
    expect(await store.outbox.all()).toEqual([]);
    expect((await store.outbox.version('n'))?.etag).toBe('"e3"');
  });

  it('moves a write to the conflicts and settles it with the server ETag as the new base', async () => {
    await write('n', cfg('mine'));
    const [pending] = await store.outbox.all();
    expect(
      await store.outbox.setConflict(pending!, {
        entry: entry('theirs', T2),
        etag: '"e9"',
      }),
    ).toBe(true);
    expect(await store.outbox.all()).toEqual([]);
    await write('n', cfg('mine, edited'));
    expect(await store.outbox.all()).toEqual([]);
    expect((await store.outbox.conflicts())[0]?.local).toEqual(
      cfg('mine, edited'),
    );
    await store.outbox.settleConflict('n', {
      kind: 'keep-local',
      token: 'k',
      queuedAt: T2,
    });
    expect(await store.outbox.all()).toEqual([
      expect.objectContaining({
        name: 'n',
        op: 'save',
        config: cfg('mine, edited'),
        baseEtag: '"e9"',
      }),
    ]);
    expect(await store.outbox.conflicts()).toEqual([]);
  });

  it('ignores a conflict for an entry that was replaced meanwhile', async () => {
    await write('n', cfg('one'));
    const [old] = await store.outbox.all();
    await write('n', cfg('two'));
    expect(
      await store.outbox.setConflict(old!, { entry: null, etag: null }),
    ).toBe(false);
    expect(await store.outbox.conflicts()).toEqual([]);
  });

  it('never lets a server answer replace a waiting change or undo a newer local one', async () => {
    await write('n', cfg('mine'));
    expect(
      await store.outbox.cacheRemote({
        name: 'n',
        entry: entry('theirs', T2),
        etag: '"e5"',
        seenRev: 0,
      }),
    ).toBe('ignored');
    const [pending] = await store.outbox.all();
    await store.outbox.acknowledge(pending!, '"e6"');
    // The answer to a request sent before the save (rev 0) comes late.
    expect(
      await store.outbox.cacheRemote({
        name: 'n',
        entry: entry('theirs', T2),
        etag: '"e5"',
        seenRev: 0,
      }),
    ).toBe('ignored');
    expect(await store.load('n')).toEqual(cfg('mine'));
  });
});

describe('cache rule', () => {
  const facts = (over: Partial<CacheFacts>): CacheFacts => ({
    update: { name: 'n', entry: entry('new', T2), etag: '"e2"', seenRev: 3 },
    pending: false,
    blocked: false,
    known: { name: 'n', etag: '"e1"', serverUpdatedAt: T1, rev: 3 },
    local: { name: 'n', ...entry('old', T1) },
    ...over,
  });

  it('takes a newer server version when nothing changed locally since the request', () => {
    expect(resolveCache(facts({}))).toBe('changed');
  });

  it('takes a version dated later by the server even after another refresh wrote the copy', () => {
    expect(
      resolveCache(
        facts({ known: { name: 'n', serverUpdatedAt: T1, rev: 4 } }),
      ),
    ).toBe('changed');
    expect(
      resolveCache(
        facts({ known: { name: 'n', serverUpdatedAt: T2, rev: 4 } }),
      ),
    ).toBe('ignored');
    expect(resolveCache(facts({ known: { name: 'n', rev: 4 } }))).toBe(
      'ignored',
    );
  });

  it('reports the same config as same, so listeners are not disturbed', () => {
    expect(
      resolveCache(facts({ local: { name: 'n', ...entry('new', T1) } })),
    ).toBe('same');
  });

  it('drops a local copy only when it came from the server', () => {
    const gone = { name: 'n', entry: null, etag: null, seenRev: 3 };
    expect(resolveCache(facts({ update: gone }))).toBe('changed');
    expect(
      resolveCache(facts({ update: gone, known: { name: 'n', rev: 3 } })),
    ).toBe('ignored');
    expect(resolveCache(facts({ update: gone, blocked: true }))).toBe(
      'ignored',
    );
  });
});
