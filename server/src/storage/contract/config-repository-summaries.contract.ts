import { beforeEach, describe, expect, it } from 'vitest';
import type {
  ConfigRepository,
  RevisionSummary,
} from '../config-repository.js';
import {
  at,
  type RepositoryScope,
  stored,
  T1,
  T2,
} from './config-repository-fixtures.contract.js';

/** A summary from its counts: added, removed, changed, links held. */
const summary = (
  ...[added, removed, changed, links]: [number, number, number, number]
): RevisionSummary => ({ added, removed, changed, links });

/**
 * Issue 29, item 2: each revision's summary is kept with it when it is written (so a page of history
 * rebuilds nothing), and the one retention prunes the log's other entries too (item 4 of the history task).
 */
export function runSummariesContract(scope: RepositoryScope): void {
  let repo: ConfigRepository;
  beforeEach(() => {
    repo = scope.repo;
  });

  const kept = async (name: string) =>
    Object.fromEntries(await repo.summaries(name, { from: 1, to: 100 }));

  describe('revision summaries', () => {
    it('keeps a write’s summary only when it was worked out against the version the write replaces', async () => {
      const one = stored(
        await repo.put('n', '{"v":1}', {
          ...at(T1),
          summary: { over: null, summary: summary(3, 0, 0, 3) },
        }),
      );
      await repo.put('n', '{"v":2}', {
        ...at(T1),
        summary: { over: one.version, summary: summary(1, 0, 2, 4) },
      });
      // Worked out against a version that is no longer the stored one: not kept.
      await repo.put('n', '{"v":3}', {
        ...at(T1),
        summary: { over: one.version, summary: summary(9, 9, 9, 9) },
      });
      // An update, as a PATCH writes.
      const three = await repo.version('n');
      await repo.update('n', () => ({ json: '{"v":4}' }), {
        ...at(T1),
        op: 'patch',
        summary: { over: three, summary: summary(0, 1, 0, 3) },
      });
      expect(await kept('n')).toEqual({
        1: summary(3, 0, 0, 3),
        2: summary(1, 0, 2, 4),
        4: summary(0, 1, 0, 3),
      });
      expect(await repo.summaries('n', { from: 2, to: 3 })).toEqual(
        new Map([[2, summary(1, 0, 2, 4)]]),
      );
    });

    it('summarizes a delete from the links of the revision before it, and nothing without them', async () => {
      await repo.put('a', '{}', {
        ...at(T1),
        summary: { over: null, summary: summary(5, 0, 0, 5) },
      });
      await repo.remove('a', at(T1));
      await repo.put('b', '{}', at(T1));
      await repo.remove('b', at(T1));
      // A delete after a delete is impossible; a write after one is as over nothing.
      await repo.put('a', '{}', {
        ...at(T1),
        summary: { over: null, summary: summary(2, 0, 0, 2) },
      });
      expect(await kept('a')).toEqual({
        1: summary(5, 0, 0, 5),
        2: summary(0, 5, 0, 0),
        3: summary(2, 0, 0, 2),
      });
      expect(await kept('b')).toEqual({});
    });

    it('keeps summaries worked out later, never replacing one it has', async () => {
      await repo.put('n', '{"v":1}', {
        ...at(T1),
        summary: { over: null, summary: summary(1, 0, 0, 1) },
      });
      await repo.put('n', '{"v":2}', at(T1));
      const head = await repo.head();
      await repo.keepSummaries('n', [
        { rev: 2, summary: summary(0, 0, 1, 1) },
        { rev: 1, summary: summary(7, 7, 7, 7) },
        { rev: 9, summary: summary(7, 7, 7, 7) },
      ]);
      expect(await kept('n')).toEqual({
        1: summary(1, 0, 0, 1),
        2: summary(0, 0, 1, 1),
      });
      // Not a write: no change id taken, nothing in the log.
      expect(await repo.head()).toBe(head);
      await repo.keepSummaries('n', []);
    });
  });

  describe('retention of the log’s other entries', () => {
    const event = (name: string, when: Date) =>
      repo.appendEvent({ type: 'link-broken', name, now: () => when });
    const eventIds = async () => {
      const page = await repo.readLog({ after: 0, limit: 100 });
      return page.reset ? [] : page.events.map((e) => [e.name, e.id]);
    };

    it('keeps each config’s newest N events with a count', async () => {
      await repo.put('n', '{}', at(T1));
      const ids = [];
      for (let i = 0; i < 5; i++) ids.push((await event('n', T1)).id);
      const other = [(await event('m', T1)).id, (await event('m', T1)).id];
      const removed = await repo.pruneHistory(
        { kind: 'count', count: 3 },
        T2.getTime(),
      );
      expect(removed).toBe(2);
      expect(await eventIds()).toEqual([
        ['n', ids[2]],
        ['n', ids[3]],
        ['n', ids[4]],
        ['m', other[0]],
        ['m', other[1]],
      ]);
      expect((await repo.history('n', { limit: 10 })).length).toBe(1);
    });

    it('keeps the events younger than the age', async () => {
      await event('n', T1);
      const young = await event('n', T2);
      const removed = await repo.pruneHistory(
        { kind: 'age', ms: 1000 },
        T2.getTime() + 500,
      );
      expect(removed).toBe(1);
      expect(await eventIds()).toEqual([['n', young.id]]);
      expect(await repo.pruneHistory({ kind: 'all' }, T2.getTime())).toBe(0);
    });
  });
}
