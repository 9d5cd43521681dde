import { describe, expect, it } from 'vitest';
import type { ConfigRepository, LogEvent } from '../config-repository.js';
import type { StoredPublish } from '../publish-store.js';
import type {
  RepositoryHarness,
  RepositoryScope,
} from './config-repository-fixtures.contract.js';

const record = (
  name: string,
  over: Partial<StoredPublish> = {},
): StoredPublish => ({
  name,
  rev: 2,
  version: 7,
  json: '{"allLinks": {}}',
  createdAt: '2026-01-02T03:04:05.678Z',
  updatedAt: '2026-01-02T03:04:06.000Z',
  etag: '"7-x"',
  origins: null,
  hideBroken: false,
  publishedAt: '2026-01-02T03:05:00.000Z',
  publishedBy: { id: 'k1', label: 'reviewer' },
  ...over,
});

/** The entries of the one log that are not writes, oldest first. */
async function logEvents(repo: ConfigRepository): Promise<LogEvent[]> {
  const page = await repo.readLog({ after: 0, limit: 1000 });
  if (page.reset) throw new Error('the log was reset');
  return [...page.events];
}

/**
 * Publish records: one per name, replaced by a new publish, removed by an unpublish; each step is an
 * entry of the one log, stored in the same transaction as the record.
 */
export function runPublishContract(
  harness: RepositoryHarness,
  scope: RepositoryScope,
): void {
  describe('publish records', () => {
    it('keeps one record per name, with its text, origins and option, replaced by the next publish', async () => {
      const store = scope.repo.publish;
      expect(await store.get('site-a/menu')).toBeNull();
      const first = await store.set(record('site-a/menu'), 'req-1');
      expect(first).toMatchObject({
        name: 'site-a/menu',
        type: 'publish',
        at: '2026-01-02T03:05:00.000Z',
        by: { id: 'k1', label: 'reviewer' },
        requestId: 'req-1',
        detail: {
          rev: 2,
          version: 7,
          etag: '"7-x"',
          origins: null,
          hideBroken: false,
        },
      });
      await store.set(
        record('b', { origins: ['https://b.example'], hideBroken: true }),
      );
      // A rollback: an older revision with its own text, the origins replaced.
      const rollback = record('site-a/menu', {
        rev: 1,
        version: 3,
        json: '{"allLinks": {"a": {"url": "https://a.example"}}}',
        origins: ['https://site-a.example'],
        publishedBy: null,
      });
      await store.set(rollback);
      expect(await store.get('site-a/menu')).toEqual(rollback);
      expect(await store.versions()).toEqual([
        { name: 'b', version: 7, hideBroken: true },
        { name: 'site-a/menu', version: 3, hideBroken: false },
      ]);
      expect(await store.get('b')).toMatchObject({
        origins: ['https://b.example'],
        hideBroken: true,
      });
      // Each publish took the next id of the one log, like a write.
      expect(await scope.repo.head()).toBe(
        (await logEvents(scope.repo)).at(-1)?.id,
      );
      expect(await store.origins()).toEqual(
        new Map<string, readonly string[] | null>([
          ['b', ['https://b.example']],
          ['site-a/menu', ['https://site-a.example']],
        ]),
      );
      expect(await store.origins('b')).toEqual(
        new Map([['b', ['https://b.example']]]),
      );
      expect(await store.origins('nope')).toEqual(new Map());
      await store.set(record('c'));
      expect((await store.origins('c')).get('c')).toBeNull();
      expect(await store.version('site-a/menu')).toEqual({
        version: 3,
        hideBroken: false,
      });
      expect(await store.version('b')).toEqual({
        version: 7,
        hideBroken: true,
      });
      expect(await store.version('nowhere')).toBeNull();
    });

    it('unpublishes: the record goes, the log entry names the revision that was published', async () => {
      const store = scope.repo.publish;
      await store.set(record('n', { rev: 4 }));
      const before = await scope.repo.head();
      const at = '2026-01-02T04:00:00.000Z';
      const event = await store.remove('n', { at, by: null, requestId: 'r' });
      expect(event).toMatchObject({
        name: 'n',
        type: 'unpublish',
        detail: { rev: 4 },
        at,
        by: null,
        requestId: 'r',
      });
      expect(await store.get('n')).toBeNull();
      expect(await store.version('n')).toBeNull();
      expect(await store.versions()).toEqual([]);
      expect(await scope.repo.head()).toBeGreaterThan(before);
      // Nothing to unpublish: nothing logged.
      expect(await store.remove('n', { at, by: null })).toBeNull();
      expect(await scope.repo.head()).toBe(event?.id);
    });

    it('logs every publish and unpublish in order, among the writes of configs', async () => {
      const store = scope.repo.publish;
      await store.set(record('a'));
      await scope.repo.put('a', '{"allLinks": {}}');
      await store.set(record('b'));
      await store.remove('a', { at: '2026-01-02T04:00:00.000Z', by: null });
      const page = await scope.repo.readLog({ after: 0, limit: 10 });
      if (page.reset) throw new Error('the log was reset');
      expect(page.events.map((e) => [e.name, e.type])).toEqual([
        ['a', 'publish'],
        ['b', 'publish'],
        ['a', 'unpublish'],
      ]);
      const [publishA, publishB] = page.events;
      const [write] = page.changes;
      expect(publishA!.id).toBeLessThan(write!.id);
      expect(write!.id).toBeLessThan(publishB!.id);
    });

    it('stores the record and its log entry together or not at all', async () => {
      const store = scope.repo.publish;
      await store.set(record('kept', { rev: 1 }));
      const head = await scope.repo.head();
      const logged = (await logEvents(scope.repo)).length;
      // The log entry cannot be made (its time is not a time): the new record is not stored either.
      await expect(
        store.set(record('kept', { rev: 5, publishedAt: 'not a time' })),
      ).rejects.toThrow();
      await expect(
        store.set(record('new', { publishedAt: 'not a time' })),
      ).rejects.toThrow();
      await expect(
        store.remove('kept', { at: 'not a time', by: null }),
      ).rejects.toThrow();
      expect((await store.get('kept'))?.rev).toBe(1);
      expect(await store.get('new')).toBeNull();
      expect(await logEvents(scope.repo)).toHaveLength(logged);
      expect(await scope.repo.head()).toBe(head);
      // The record cannot be stored (no text): no log entry either.
      if (harness.connect !== undefined) {
        await expect(
          store.set(record('kept', { rev: 6, json: null as never })),
        ).rejects.toThrow();
        expect((await store.get('kept'))?.rev).toBe(1);
        expect(await logEvents(scope.repo)).toHaveLength(logged);
      }
      // And the store still works.
      await store.set(record('kept', { rev: 3 }));
      expect((await store.get('kept'))?.rev).toBe(3);
      expect(await logEvents(scope.repo)).toHaveLength(logged + 1);
    });

    it('is seen by another connection to the same database', async () => {
      if (harness.connect === undefined) return;
      const other = scope.track(await harness.connect(scope.repo));
      const token = await other.changeToken();
      await scope.repo.publish.set(record('shared'));
      expect((await other.publish.get('shared'))?.rev).toBe(2);
      expect(await other.head()).toBe(await scope.repo.head());
      expect(await other.changeToken()).not.toBe(token);
    });
  });
}
