import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConfigRepository } from '../config-repository.js';
import {
  at,
  type RepositoryHarness,
  type RepositoryScope,
  SOON,
  stored,
  T1,
} from './config-repository-fixtures.contract.js';

/** The change history: pages, resets, pruning, watchers, and several connections on one database. */
export function runChangesContract(
  harness: RepositoryHarness,
  scope: RepositoryScope,
): void {
  let repo: ConfigRepository;
  const { track } = scope;
  beforeEach(() => {
    repo = scope.repo;
  });
  afterEach(() => {
    // A test that restarts replaces `repo`: the new one is the one to close.
    scope.repo = repo;
  });

  describe('changes', () => {
    it('lists puts and deletes in commit order, with ETags and times, in pages', async () => {
      const a = stored(await repo.put('a', '{}', at(T1)));
      const b = stored(await repo.put('b', '{}', at(T1)));
      await repo.remove('a', at(SOON));
      const head = await repo.head();
      const page = await repo.changesSince(0, 10);
      expect(page).toEqual({
        reset: false,
        head,
        changes: [
          {
            id: a.version,
            name: 'a',
            op: 'put',
            etag: a.etag,
            updatedAt: T1.toISOString(),
          },
          {
            id: b.version,
            name: 'b',
            op: 'put',
            etag: b.etag,
            updatedAt: T1.toISOString(),
          },
          {
            id: head,
            name: 'a',
            op: 'delete',
            etag: null,
            updatedAt: SOON.toISOString(),
          },
        ],
      });
      const first = await repo.changesSince(0, 2);
      const rest = await repo.changesSince(b.version, 2);
      expect(first.reset || first.changes.map((c) => c.id)).toEqual([
        a.version,
        b.version,
      ]);
      expect(rest.reset || rest.changes.map((c) => c.id)).toEqual([head]);
    });

    it('asks for a reset when the id was never given out', async () => {
      await repo.put('a', '{}', at(T1));
      expect(await repo.changesSince(99, 10)).toEqual({
        reset: true,
        head: 1,
      });
    });

    it('keeps at most the configured number of changes', async () => {
      const small = track(await harness.create({ history: { maxCount: 3 } }));
      for (let i = 0; i < 6; i++) await small.put(`n${i}`, '{}', at(T1));
      const head = await small.head();
      const kept = await small.changesSince(head - 3, 10);
      expect(kept.reset || kept.changes.map((c) => c.name)).toEqual([
        'n3',
        'n4',
        'n5',
      ]);
      expect(await small.changesSince(head - 4, 10)).toEqual({
        reset: true,
        head,
      });
      expect((await small.changesSince(0, 10)).reset).toBe(true);
    });

    it('drops changes older than the configured age', async () => {
      const young = track(
        await harness.create({ history: { maxAgeMs: 60_000 } }),
      );
      const t = T1.getTime();
      await young.put('a', '{}', at(new Date(t)));
      await young.put('b', '{}', at(new Date(t + 30_000)));
      await young.put('c', '{}', at(new Date(t + 100_000)));
      const head = await young.head();
      expect((await young.changesSince(head - 2, 10)).reset).toBe(true);
      const kept = await young.changesSince(head - 1, 10);
      expect(kept.reset || kept.changes.map((c) => c.name)).toEqual(['c']);
    });

    it('tells watchers about its own writes, until they unsubscribe', async () => {
      const listener = vi.fn();
      const stop = repo.watch(listener);
      await repo.put('n', '{}', at(T1));
      await vi.waitFor(() => expect(listener).toHaveBeenCalled());
      stop();
      listener.mockClear();
      await repo.put('n', '{}', at(T1));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(listener).not.toHaveBeenCalled();
    });

    it('moves the change token on every write', async () => {
      const before = await repo.changeToken();
      expect(await repo.changeToken()).toBe(before);
      await repo.put('n', '{}', at(T1));
      const afterPut = await repo.changeToken();
      expect(afterPut).not.toBe(before);
      await repo.remove('n');
      expect(await repo.changeToken()).not.toBe(afterPut);
    });
  });

  if (harness.connect !== undefined) {
    const connect = harness.connect;
    describe('shared by several connections', () => {
      it('sees another connection’s writes: token, watchers and changes', async () => {
        const other = track(await connect(repo));
        const token = await repo.changeToken();
        const listener = vi.fn();
        const stop = repo.watch(listener);
        const put = stored(await other.put('n', '{"v":1}', at(T1)));
        expect(await repo.changeToken()).not.toBe(token);
        await vi.waitFor(() => expect(listener).toHaveBeenCalled(), {
          timeout: 2000,
        });
        stop();
        const page = await repo.changesSince(0, 10);
        expect(page.reset || page.changes.map((c) => c.etag)).toEqual([
          put.etag,
        ]);
      });

      it('never reuses a revision after a restart', async () => {
        const first = stored(await repo.put('a', '{}', at(T1)));
        await repo.remove('a', at(T1));
        const head = await repo.head();
        await repo.close();
        repo = await connect(repo);
        expect(await repo.head()).toBe(head);
        const next = stored(await repo.put('b', '{}', at(T1)));
        expect(next.version).toBeGreaterThan(head);
        const page = await repo.changesSince(0, 10);
        expect(page.reset || page.changes.map((c) => c.id)).toEqual([
          first.version,
          head,
          next.version,
        ]);
      });
    });
  }
}
