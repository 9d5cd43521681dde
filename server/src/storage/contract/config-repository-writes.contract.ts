import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConfigRepository } from '../config-repository.js';
import { etagOf } from '../etag.js';
import {
  at,
  refused,
  type RepositoryHarness,
  type RepositoryScope,
  stored,
  T1,
  T2,
} from './config-repository-fixtures.contract.js';

/** Writes: preconditions checked inside the write, and server-owned timestamps. */
export function runWritesContract(
  harness: RepositoryHarness,
  scope: RepositoryScope,
): void {
  let repo: ConfigRepository;
  const { track } = scope;
  beforeEach(() => {
    repo = scope.repo;
  });

  describe('preconditions', () => {
    it('puts over the version named by If-Match, and refuses a stale one', async () => {
      const first = stored(await repo.put('n', '{"v":1}', at(T1)));
      const second = stored(
        await repo.put('n', '{"v":2}', { ...at(T2), ifMatch: [first.etag] }),
      );
      const head = await repo.head();
      const stale = refused(
        await repo.put('n', '{"v":3}', { ...at(T2), ifMatch: [first.etag] }),
      );
      expect(stale.currentEtag).toBe(second.etag);
      expect((await repo.get('n'))?.json).toBe('{"v":2}');
      expect(await repo.head()).toBe(head);
    });

    it('accepts a list holding the current tag, and never a weak tag', async () => {
      const first = stored(await repo.put('n', '{}', at(T1)));
      stored(
        await repo.put('n', '{"v":2}', {
          ifMatch: ['"other"', first.etag],
        }),
      );
      const current = etagOf((await repo.get('n'))!);
      expect(
        refused(await repo.put('n', '{"v":3}', { ifMatch: [`W/${current}`] }))
          .currentEtag,
      ).toBe(current);
    });

    it('refuses If-Match on a missing name, * included, with no current tag', async () => {
      expect(await repo.put('n', '{}', { ifMatch: ['"1-x"'] })).toEqual({
        ok: false,
        currentEtag: null,
      });
      expect(await repo.put('n', '{}', { ifMatch: '*' })).toEqual({
        ok: false,
        currentEtag: null,
      });
      expect(await repo.get('n')).toBeNull();
      expect(await repo.head()).toBe(0);
    });

    it('puts over any existing version with If-Match: *', async () => {
      await repo.put('n', '{"v":1}', at(T1));
      stored(await repo.put('n', '{"v":2}', { ifMatch: '*' }));
      expect((await repo.get('n'))?.json).toBe('{"v":2}');
    });

    it('creates only with If-None-Match: *', async () => {
      const created = stored(
        await repo.put('n', '{"v":1}', { ifNoneMatch: '*' }),
      );
      expect(created.created).toBe(true);
      expect(
        refused(await repo.put('n', '{"v":2}', { ifNoneMatch: '*' }))
          .currentEtag,
      ).toBe(created.etag);
      expect((await repo.get('n'))?.json).toBe('{"v":1}');
    });

    it('compares If-None-Match tags weakly', async () => {
      const first = stored(await repo.put('n', '{}', at(T1)));
      refused(await repo.put('n', '{}', { ifNoneMatch: [`W/${first.etag}`] }));
      stored(await repo.put('n', '{}', { ifNoneMatch: ['"other"'] }));
    });

    it('deletes the version named by If-Match, and refuses a stale one', async () => {
      const first = stored(await repo.put('n', '{"v":1}', at(T1)));
      const second = stored(await repo.put('n', '{"v":2}', at(T2)));
      expect(
        refused(await repo.remove('n', { ifMatch: [first.etag] })).currentEtag,
      ).toBe(second.etag);
      expect((await repo.get('n'))?.json).toBe('{"v":2}');
      expect(await repo.remove('n', { ifMatch: [second.etag] })).toEqual({
        ok: true,
        removed: true,
      });
      expect(await repo.get('n')).toBeNull();
    });

    it('refuses a conditional delete of a missing name', async () => {
      expect(await repo.remove('n', { ifMatch: '*' })).toEqual({
        ok: false,
        currentEtag: null,
      });
      expect(await repo.remove('n', { ifMatch: ['"1-x"'] })).toEqual({
        ok: false,
        currentEtag: null,
      });
    });

    it('lets exactly one of two writers with the same If-Match through', async () => {
      const first = stored(await repo.put('n', '{"v":0}', at(T1)));
      const other = harness.connect ? track(await harness.connect(repo)) : repo;
      const results = await Promise.all([
        repo.put('n', '{"v":1}', { ifMatch: [first.etag] }),
        other.put('n', '{"v":2}', { ifMatch: [first.etag] }),
        other.remove('n', { ifMatch: [first.etag] }),
      ]);
      expect(results.filter((r) => r.ok)).toHaveLength(1);
    });
  });

  describe('timestamps', () => {
    it('never moves updatedAt below the stored timestamps when the clock goes back', async () => {
      await repo.put('n', '{}', at(T2));
      const back = stored(await repo.put('n', '{}', at(T1)));
      expect(back.createdAt).toBe(T2.toISOString());
      expect(back.updatedAt).toBe(T2.toISOString());
      await repo.remove('n', at(T1));
      const page = await repo.readLog({ after: 0, limit: 10 });
      expect(page.reset).toBe(false);
      if (!page.reset) {
        expect(page.changes.map((c) => c.updatedAt)).toEqual([
          T2.toISOString(),
          T2.toISOString(),
          T2.toISOString(),
        ]);
      }
    });

    it('reads the clock once per write, inside the write', async () => {
      const clock = vi.fn(() => T1);
      await repo.put('n', '{}', { now: clock });
      expect(clock).toHaveBeenCalledTimes(1);
      await repo.put('n', '{}', { now: clock, ifMatch: ['"stale"'] });
      expect(clock).toHaveBeenCalledTimes(1);
    });
  });
}
