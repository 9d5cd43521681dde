/**
 * The hybrid store merges a write that met a newer server version (issue 20): a clean merge is sent at
 * once and reported (`onMerged`, `getStatus().lastMerge`), never asked about (H21); only true conflicts
 * reach `onConflict`, with the base and the conflicting paths, and may be settled per conflict. A small
 * edit of a large config travels as a PATCH of the difference.
 */
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LinkConfig } from '@linkconfig/shared';
import { createIndexedDBStore } from '../indexeddb/indexeddb-store.js';
import type { IndexedDBConfigStore } from '../indexeddb/indexeddb-store.js';
import { createScriptedRemote } from '../testing/test-remote.js';
import type { MergeReport } from './auto-merge.js';
import type { Conflict, ConflictChoice } from './conflicts.js';
import { PATCH_MIN_BYTES } from './delivery.js';
import { createHybridStore } from './hybrid-store.js';
import type { HybridStore } from './hybrid-store.js';

type Links = Record<string, { url: string; label?: string; tags?: string[] }>;
const config = (allLinks: Links): LinkConfig => ({ allLinks });
const base: Links = {
  a: { url: 'https://a.example', label: 'A' },
  b: { url: 'https://b.example', label: 'B' },
};
const edit = (changes: Links): LinkConfig =>
  config({ ...structuredClone(base), ...changes });

describe('hybrid store merges (issue 20)', () => {
  let local: IndexedDBConfigStore;
  let remote: ReturnType<typeof createScriptedRemote>;
  let store: HybridStore;
  let merges: { name: string; report: MergeReport }[];
  let asked: Conflict[];
  let maxConflicts: number;

  beforeEach(async () => {
    local = await createIndexedDBStore({ indexedDB: new IDBFactory() });
    remote = createScriptedRemote();
    merges = [];
    asked = [];
    maxConflicts = 0;
  });
  afterEach(() => {
    store.close();
    local.close();
  });

  function make(answer?: (conflict: Conflict) => ConflictChoice): HybridStore {
    store = createHybridStore({
      local,
      remote: remote.store,
      backoff: { baseMs: 1, capMs: 4 },
      onMerged: (name, report) => merges.push({ name, report }),
      ...(answer
        ? {
            onConflict: (_name: string, conflict: Conflict) => {
              asked.push(conflict);
              return answer(conflict);
            },
          }
        : {}),
    });
    store.subscribe((s) => {
      maxConflicts = Math.max(maxConflicts, s.conflicts);
    });
    return store;
  }

  /** The store holds the server's "n" (based on it); then another client writes `theirs` there. */
  async function basedThen(theirs: LinkConfig): Promise<string> {
    remote.writeDirect('n', config(base));
    expect(await store.load('n')).toEqual(config(base));
    return remote.writeDirect('n', theirs);
  }

  it('merges edits of different links without asking, and reports the merge (H21)', async () => {
    make(() => 'keep-local');
    const theirs = await basedThen(
      edit({ b: { url: 'https://b.example', label: 'B2' } }),
    );
    await store.save(
      'n',
      edit({ a: { url: 'https://a2.example', label: 'A' } }),
    );
    await store.flush();
    const both = edit({
      a: { url: 'https://a2.example', label: 'A' },
      b: { url: 'https://b.example', label: 'B2' },
    });
    expect(remote.config('n')).toEqual(both);
    expect(await store.load('n')).toEqual(both);
    expect(asked).toEqual([]);
    expect(maxConflicts).toBe(0);
    expect(merges).toEqual([
      {
        name: 'n',
        report: {
          appliedRemote: [['allLinks', 'b', 'label']],
          keptLocal: [['allLinks', 'a', 'url']],
        },
      },
    ]);
    expect(store.getStatus().lastMerge).toMatchObject({
      name: 'n',
      appliedRemote: 1,
      keptLocal: 1,
    });
    // The merge went out over the server's version, not over the stale one.
    const last = remote.calls.filter((c) => c.op === 'save').at(-1);
    expect(last?.condition).toEqual({ ifMatch: theirs });
  });

  it('keeps merging while offline edits pile up: one entry, both sides kept (H4, H21)', async () => {
    make();
    await basedThen(edit({ c: { url: 'https://c.example' } } as Links));
    await store.save(
      'n',
      edit({ a: { url: 'https://a.example', label: '1' } }),
    );
    await store.save(
      'n',
      edit({ a: { url: 'https://a.example', label: '2' } }),
    );
    await store.flush();
    expect(remote.config('n')).toEqual(
      edit({
        a: { url: 'https://a.example', label: '2' },
        c: { url: 'https://c.example' },
      }),
    );
    expect(await store.conflicts()).toEqual([]);
  });

  it('asks only about the field both changed, with its path and the base, and takes an answer per conflict', async () => {
    make((conflict) => ({
      resolutions: conflict.conflicts.map((c) => ({
        path: c.path,
        take: 'remote' as const,
      })),
    }));
    await basedThen(
      edit({
        a: { url: 'https://a.example', label: 'theirs' },
        b: { url: 'https://b.example', label: 'B2' },
      }),
    );
    await store.save(
      'n',
      edit({
        a: { url: 'https://a-mine.example', label: 'mine' },
      }),
    );
    await store.flush();
    expect(asked).toHaveLength(1);
    expect(asked[0]?.base).toEqual(config(base));
    expect(asked[0]?.conflicts).toEqual([
      {
        path: ['allLinks', 'a', 'label'],
        base: 'A',
        local: 'mine',
        remote: 'theirs',
      },
    ]);
    const settled = edit({
      a: { url: 'https://a-mine.example', label: 'theirs' },
      b: { url: 'https://b.example', label: 'B2' },
    });
    expect(remote.config('n')).toEqual(settled);
    expect(await store.load('n')).toEqual(settled);
    expect(await store.conflicts()).toEqual([]);
  });

  it('a removed link against an edit of it is a conflict of that link; the rest is merged', async () => {
    make();
    await basedThen(
      edit({
        a: { url: 'https://a.example', label: 'edited' },
        c: { url: 'https://c.example' },
      } as Links),
    );
    const mine = config({ b: base['b']! });
    await store.save('n', mine);
    await expect(store.flush()).rejects.toThrow(/"n" conflicts/);
    const [conflict] = await store.conflicts();
    expect(conflict?.conflicts).toEqual([
      {
        path: ['allLinks', 'a'],
        base: base['a'],
        local: undefined,
        remote: { url: 'https://a.example', label: 'edited' },
      },
    ]);
    expect(conflict?.merged).toEqual(
      config({ b: base['b']!, c: { url: 'https://c.example' } }),
    );
    // The other writer's version stays on the server until someone decides.
    expect(remote.config('n')?.allLinks['a']?.label).toBe('edited');
    await store.resolveConflict('n', {
      resolutions: [{ path: ['allLinks', 'a'], take: 'local' }],
    });
    await store.flush();
    expect(remote.config('n')).toEqual(
      config({ b: base['b']!, c: { url: 'https://c.example' } }),
    );
  });

  it('sends a small edit of a large config as a PATCH of the difference, over the base version', async () => {
    make();
    const many: Links = {};
    for (let i = 0; i < 60; i++)
      many[`l${i}`] = { url: `https://example.com/${i}`, label: `Link ${i}` };
    const large = config(many);
    expect(JSON.stringify(large).length).toBeGreaterThan(PATCH_MIN_BYTES);
    remote.writeDirect('big', large);
    await store.load('big');
    const etag = remote.data.get('big')?.etag;
    const edited = structuredClone(large);
    edited.allLinks['l7']!.label = 'Seven';
    await store.save('big', edited);
    await store.flush();
    const [sent] = remote.calls.filter((c) => c.op === 'save');
    expect(sent?.patch).toEqual({ allLinks: { l7: { label: 'Seven' } } });
    expect(sent?.condition).toEqual({ ifMatch: etag });
    expect(remote.config('big')).toEqual(edited);
  });
});
