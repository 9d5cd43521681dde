import { beforeEach, describe, expect, it } from 'vitest';
import type { ConfigRepository, SnapshotItem } from '../config-repository.js';
import {
  at,
  type RepositoryScope,
  stored,
  T1,
} from './config-repository-fixtures.contract.js';

/** Entries of the log that are not writes of configs (`appendEvent`). */
export function runEventsContract(scope: RepositoryScope): void {
  let repo: ConfigRepository;
  beforeEach(() => {
    repo = scope.repo;
  });

  describe('events in the log', () => {
    it('takes the next id and is read among the writes, in commit order', async () => {
      const first = stored(await repo.put('n', '{}', at(T1)));
      const event = await repo.appendEvent({
        type: 'publish',
        name: 'n',
        by: { id: 'k1', label: 'ann' },
        requestId: 'r-1',
        detail: { url: 'https://example.com/n' },
        now: () => T1,
      });
      const second = stored(await repo.put('n', '{"v":2}', at(T1)));
      expect(event).toEqual({
        id: first.version + 1,
        type: 'publish',
        name: 'n',
        at: T1.toISOString(),
        by: { id: 'k1', label: 'ann' },
        requestId: 'r-1',
        detail: { url: 'https://example.com/n' },
      });
      expect(second.version).toBe(event.id + 1);
      expect(await repo.head()).toBe(second.version);
      const page = await repo.readLog({ after: 0, limit: 10 });
      if (page.reset) throw new Error('reset');
      expect(page.changes.map((c) => c.id)).toEqual([
        first.version,
        second.version,
      ]);
      expect(page.events).toEqual([event]);
      expect(page.through).toBe(second.version);
      // A page that ends on the event says so.
      const short = await repo.readLog({ after: first.version, limit: 1 });
      expect(short.reset || [short.events.length, short.through]).toEqual([
        1,
        event.id,
      ]);
    });

    it('is not a revision: history, the audit trail and backups leave it out', async () => {
      stored(await repo.put('n', '{}', at(T1)));
      await repo.appendEvent({ type: 'link-broken', name: 'n' });
      await repo.appendEvent({ type: 'publish', name: 'other' });
      expect((await repo.history('n', { limit: 10 })).length).toBe(1);
      expect(await repo.history('other', { limit: 10 })).toEqual([]);
      expect(
        (await repo.auditTrail({ afterId: 0, limit: 10 })).map((m) => m.name),
      ).toEqual(['n']);
      const items: SnapshotItem[] = [];
      for await (const item of repo.snapshot()) items.push(item);
      expect(items.map((i) => i.kind)).toEqual(['config', 'revision']);
      // The next write's revision follows on.
      const next = stored(await repo.put('other', '{}', at(T1)));
      expect(next.rev).toBe(1);
    });

    it('refuses a write’s op as an event type', async () => {
      await expect(
        repo.appendEvent({ type: 'put', name: 'n' }),
      ).rejects.toThrow(/write/);
      expect(await repo.head()).toBe(0);
    });
  });
}
