import { beforeEach, describe, expect, it } from 'vitest';
import type { ConfigRepository } from '../config-repository.js';
import {
  at,
  refused,
  type RepositoryHarness,
  type RepositoryScope,
  stored,
  T1,
  T2,
} from './config-repository-fixtures.contract.js';

/** A config of `n` links whose link `k` carries `mark` (a one-link edit when only `mark` changes). */
const linksConfig = (n: number, k: number, mark: string): string =>
  JSON.stringify({
    allLinks: Object.fromEntries(
      Array.from({ length: n }, (_, i) => [
        `l${i}`,
        { url: `https://example.org/${i}`, label: i === k ? mark : `l${i}` },
      ]),
    ),
  });

/** History: one revision per committed write, in the write's transaction. */
export function runHistoryContract(
  harness: RepositoryHarness,
  scope: RepositoryScope,
): void {
  let repo: ConfigRepository;
  beforeEach(() => {
    repo = scope.repo;
  });

  describe('history', () => {
    it('keeps one revision per write, newest first, rev growing across a delete', async () => {
      const one = stored(await repo.put('n', '{"v":1}', at(T1)));
      const two = stored(
        await repo.put('n', '{"v":2}', {
          ...at(T2),
          op: 'restore',
          author: { id: 'k1', label: 'Key one' },
          requestId: 'req-2',
        }),
      );
      await repo.remove('n', { ...at(T2), requestId: 'req-3' });
      const four = stored(await repo.put('n', '{"v":4}', at(T2)));
      const page = await repo.history('n', { limit: 10 });
      expect(page.map((r) => [r.rev, r.op, r.etag])).toEqual([
        [4, 'put', four.etag],
        [3, 'delete', null],
        [2, 'restore', two.etag],
        [1, 'put', one.etag],
      ]);
      expect(page[2]).toMatchObject({
        name: 'n',
        id: two.version,
        at: two.updatedAt,
        by: { id: 'k1', label: 'Key one' },
        requestId: 'req-2',
        size: 7,
      });
      expect(page[1]).toMatchObject({
        by: null,
        requestId: 'req-3',
        size: null,
      });
      expect(await repo.history('n', { limit: 2, before: 4 })).toMatchObject([
        { rev: 3 },
        { rev: 2 },
      ]);
      expect(await repo.history('never', { limit: 10 })).toEqual([]);
    });

    it('reads every revision back exactly as stored; a delete has no content', async () => {
      await repo.put('n', '{"z":1, "a" : "é😀"}', at(T1));
      await repo.put('n', '{"z":1, "a" : "é😁"}', at(T1));
      await repo.remove('n', at(T1));
      await repo.put('n', '{}', at(T1));
      const all = await repo.revisions('n', { from: 1, to: 4 });
      expect(all.map((r) => r.json)).toEqual([
        '{"z":1, "a" : "é😀"}',
        '{"z":1, "a" : "é😁"}',
        null,
        '{}',
      ]);
      expect(await repo.revisions('n', { from: 2, to: 2 })).toMatchObject([
        { meta: { rev: 2 }, json: '{"z":1, "a" : "é😁"}' },
      ]);
      expect(await repo.revisions('n', { from: 9, to: 9 })).toEqual([]);
    });

    it('reads back any of many one-link edits of a large config', async () => {
      const texts: string[] = [];
      for (let i = 0; i < 120; i++) {
        const text = linksConfig(
          200,
          (i * 37) % 200,
          `edit ${i} ${'x'.repeat(i % 7)}`,
        );
        texts.push(text);
        stored(await repo.put('big', text, at(T1)));
      }
      const all = await repo.revisions('big', { from: 1, to: 120 });
      expect(all.map((r) => r.json)).toEqual(texts);
      for (const rev of [1, 2, 57, 119, 120]) {
        const [one] = await repo.revisions('big', { from: rev, to: rev });
        expect(one?.json).toBe(texts[rev - 1]);
      }
    });

    it('makes a delta from a held text of the stored version only, never from another one', async () => {
      const texts = [0, 1, 2, 3].map((i) => linksConfig(50, i, `held ${i}`));
      let last = stored(await repo.put('h', texts[0] ?? '', at(T1)));
      // The held text of the stored version: used instead of reading it back.
      last = stored(
        await repo.put('h', texts[1] ?? '', {
          ...at(T1),
          heldText: { version: last.version, json: texts[0] ?? '' },
        }),
      );
      // A held text of an older version (not what is stored): ignored, the stored text is read.
      last = stored(
        await repo.put('h', texts[2] ?? '', {
          ...at(T1),
          heldText: { version: last.version - 1, json: texts[0] ?? '' },
        }),
      );
      await repo.put('h', texts[3] ?? '', {
        ...at(T1),
        heldText: { version: last.version, json: texts[2] ?? '' },
      });
      const all = await repo.revisions('h', { from: 1, to: 4 });
      expect(all.map((r) => r.json)).toEqual(texts);
    });

    it('records nothing for a refused write or the delete of a missing name', async () => {
      const first = stored(await repo.put('n', '{}', at(T1)));
      refused(await repo.put('n', '{"v":2}', { ifMatch: ['"stale"'] }));
      await repo.remove('missing');
      expect((await repo.history('n', { limit: 10 })).map((r) => r.id)).toEqual(
        [first.version],
      );
      expect(await repo.history('missing', { limit: 10 })).toEqual([]);
    });

    it('keeps the audit trail by change id across configs, filterable by name', async () => {
      const a = stored(await repo.put('a', '{}', at(T1)));
      const b = stored(await repo.put('b', '{}', at(T1)));
      await repo.remove('a', at(T1));
      const trail = await repo.auditTrail({ afterId: 0, limit: 10 });
      expect(trail.map((e) => [e.id, e.name, e.rev, e.op])).toEqual([
        [a.version, 'a', 1, 'put'],
        [b.version, 'b', 1, 'put'],
        [b.version + 1, 'a', 2, 'delete'],
      ]);
      expect(
        (await repo.auditTrail({ afterId: a.version, limit: 1 })).map(
          (e) => e.name,
        ),
      ).toEqual(['b']);
      expect(
        (await repo.auditTrail({ afterId: 0, limit: 10, name: 'a' })).map(
          (e) => e.rev,
        ),
      ).toEqual([1, 2]);
    });

    it('lists deleted names until they are written again', async () => {
      await repo.put('b', '{}', at(T1));
      await repo.put('a', '{}', at(T1));
      await repo.put('keep', '{}', at(T1));
      await repo.remove('b', at(T1));
      await repo.remove('a', at(T1));
      expect(await repo.deletedNames()).toEqual(['a', 'b']);
      await repo.put('a', '{}', at(T1));
      expect(await repo.deletedNames()).toEqual(['b']);
    });

    it('prunes to the newest N per config, keeping every kept revision readable', async () => {
      const texts: string[] = [];
      for (let i = 0; i < 30; i++) {
        texts.push(linksConfig(50, i % 50, `v${i}`));
        await repo.put('n', texts[i] ?? '', at(T1));
      }
      await repo.put('gone', '{}', at(T1));
      await repo.remove('gone', at(T1));
      const removed = await repo.pruneHistory(
        { kind: 'count', count: 5 },
        T2.getTime(),
      );
      const kept = (await repo.history('n', { limit: 100 })).map((r) => r.rev);
      expect(kept[0]).toBe(30);
      expect(kept.length).toBeGreaterThanOrEqual(5);
      expect(removed).toBe(30 - kept.length);
      const oldest = kept.at(-1) ?? 1;
      const all = await repo.revisions('n', { from: oldest, to: 30 });
      expect(all.map((r) => r.json)).toEqual(texts.slice(oldest - 1));
      expect(
        (await repo.history('gone', { limit: 10 })).map((r) => r.op),
      ).toEqual(['delete', 'put']);
      expect(await repo.deletedNames()).toEqual(['gone']);
      const next = stored(await repo.put('n', '{}', at(T2)));
      expect((await repo.history('n', { limit: 1 }))[0]?.id).toBe(next.version);
      expect((await repo.history('n', { limit: 1 }))[0]?.rev).toBe(31);
    });

    it('prunes by age, never the newest revision nor the keyframe a kept one needs', async () => {
      await repo.put('old', '{"v":1}', at(T1));
      await repo.remove('old', at(T1));
      await repo.put('old', '{"v":2}', at(T1));
      await repo.put('mixed', '{"v":1}', at(T1));
      await repo.remove('mixed', at(T1));
      await repo.put('mixed', '{"v":2}', at(T2));
      await repo.put('mixed', '{"v":3}', at(T2));
      expect(await repo.pruneHistory({ kind: 'all' }, T2.getTime())).toBe(0);
      // Nothing younger than the age: the newest stays (with the keyframe it is rebuilt from).
      await repo.pruneHistory({ kind: 'age', ms: 1000 }, T2.getTime() + 10_000);
      expect(
        (await repo.history('old', { limit: 10 })).map((r) => r.rev),
      ).toEqual([3]);
      expect((await repo.revisions('old', { from: 3, to: 3 }))[0]?.json).toBe(
        '{"v":2}',
      );
      const mixed = await repo.history('mixed', { limit: 10 });
      expect(mixed.map((r) => r.rev)).toEqual([4, 3]);
      expect(
        (await repo.revisions('mixed', { from: 3, to: 4 })).map((r) => r.json),
      ).toEqual(['{"v":2}', '{"v":3}']);
    });

    it('keeps revisions dense and ordered when two connections race writes on one name', async () => {
      const other = harness.connect
        ? scope.track(await harness.connect(repo))
        : repo;
      const writes: Promise<unknown>[] = [];
      for (let i = 0; i < 40; i++) {
        const by = i % 2 === 0 ? repo : other;
        writes.push(
          i % 7 === 6
            ? by.remove('race')
            : by.put('race', `{"i":${i}}`, { requestId: `r${i}` }),
        );
      }
      await Promise.all(writes);
      const page = await repo.history('race', { limit: 100 });
      const revs = page.map((r) => r.rev).reverse();
      expect(revs).toEqual(revs.map((_, i) => i + 1));
      const ids = page.map((r) => r.id).reverse();
      expect([...ids].sort((x, y) => x - y)).toEqual(ids);
      const all = await repo.revisions('race', { from: 1, to: revs.length });
      for (const r of all) {
        if (r.meta.op !== 'delete')
          expect(r.json).toBe(`{"i":${r.meta.requestId?.slice(1)}}`);
      }
    });
  });
}
