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

/** The log of changes: pages, resets, one retention with history, watchers, and several connections on one database. */
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
      const page = await repo.readLog({ after: 0, limit: 10 });
      expect(page).toEqual({
        events: [],
        through: head,
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
      const first = await repo.readLog({ after: 0, limit: 2 });
      const rest = await repo.readLog({ after: b.version, limit: 2 });
      expect(first.reset || first.changes.map((c) => c.id)).toEqual([
        a.version,
        b.version,
      ]);
      expect(rest.reset || rest.changes.map((c) => c.id)).toEqual([head]);
    });

    it('asks for a reset when the id was never given out', async () => {
      await repo.put('a', '{}', at(T1));
      expect(await repo.readLog({ after: 99, limit: 10 })).toEqual({
        reset: true,
        head: 1,
      });
    });

    it('is the history: the feed, the audit trail and history agree on every id after a burst with pruning in between', async () => {
      const names = ['a', 'b', 'c'];
      const t = T1.getTime();
      let clock = 0;
      const tick = () => at(new Date(t + 1000 * ++clock));
      for (let round = 0; round < 4; round++) {
        for (let i = 0; i < 12; i++) {
          const name = names[i % 3] ?? 'a';
          if (i === 7) await repo.remove(name, tick());
          else if (i % 4 === 1) {
            await repo.update(name, (c) => ({ json: c?.json ?? '{}' }), {
              ...tick(),
              op: 'patch',
            });
          } else await repo.put(name, `{"r":${round},"i":${i}}`, tick());
        }
        await repo.pruneHistory({ kind: 'count', count: 2 }, t + 1000 * clock);
      }
      const feed = await repo.readLog({ after: 0, limit: 1000 });
      if (feed.reset) throw new Error('the log asked for a reset');
      const audit = await repo.auditTrail({ afterId: 0, limit: 1000 });
      const histories = (
        await Promise.all(
          names.map((name) => repo.history(name, { limit: 1000 })),
        )
      ).flat();
      const feedIds = feed.changes.map((c) => c.id);
      expect(audit.map((m) => m.id)).toEqual(feedIds);
      expect(histories.map((m) => m.id).sort((x, y) => x - y)).toEqual(feedIds);
      // Pruned: fewer than the 48 writes; each name's newest revision is kept, and it is the feed's last
      // word on that name.
      expect(feedIds.length).toBeLessThan(48);
      for (const name of names) {
        const [newest] = await repo.history(name, { limit: 1 });
        const last = feed.changes.filter((c) => c.name === name).at(-1);
        expect(last?.id).toBe(newest?.id);
        const row = await repo.get(name);
        expect(last?.op).toBe(row === null ? 'delete' : 'put');
        if (row !== null) expect(last?.id).toBe(row.version);
      }
      // Every entry of the feed says what its revision says.
      for (const meta of audit) {
        const change = feed.changes.find((c) => c.id === meta.id);
        expect(change).toEqual({
          id: meta.id,
          name: meta.name,
          op: meta.op === 'delete' ? 'delete' : 'put',
          etag: meta.etag,
          updatedAt: meta.at,
        });
      }
    });

    it('resumes after pruning from an id the pruning removed, without a reset', async () => {
      stored(await repo.put('a', '{"v":1}', at(T1)));
      const early = stored(await repo.put('a', '{"v":2}', at(T1)));
      stored(await repo.put('a', '{"v":3}', at(T1)));
      const last = stored(await repo.put('a', '{"v":4}', at(T1)));
      expect(
        await repo.pruneHistory({ kind: 'count', count: 1 }, T1.getTime()),
      ).toBeGreaterThan(0);
      const page = await repo.readLog({ after: early.version, limit: 10 });
      if (page.reset) throw new Error('the log asked for a reset');
      // What pruning kept after the reader's id (revisions a kept one is rebuilt from may stay), ending
      // on the config's current version.
      expect(page.changes.at(-1)?.id).toBe(last.version);
      const kept = (
        await repo.auditTrail({ afterId: early.version, limit: 10 })
      ).map((m) => m.id);
      expect(page.changes.map((c) => c.id)).toEqual(kept);
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
        const page = await repo.readLog({ after: 0, limit: 10 });
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
        const page = await repo.readLog({ after: 0, limit: 10 });
        expect(page.reset || page.changes.map((c) => c.id)).toEqual([
          first.version,
          head,
          next.version,
        ]);
      });
    });
  }
}
