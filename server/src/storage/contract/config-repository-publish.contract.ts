import { describe, expect, it } from 'vitest';
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
  publishedAt: '2026-01-02T03:05:00.000Z',
  publishedBy: { id: 'k1', label: 'reviewer' },
  ...over,
});

/** Publish records: one per name, replaced by a new publish, removed by an unpublish; every step logged. */
export function runPublishContract(
  harness: RepositoryHarness,
  scope: RepositoryScope,
): void {
  describe('publish records', () => {
    it('keeps one record per name, with its text and origins, replaced by the next publish', async () => {
      const store = scope.repo.publish;
      expect(await store.get('site-a/menu')).toBeNull();
      expect(await store.head()).toBe(0);
      const first = await store.set(record('site-a/menu'), 'req-1');
      expect(first).toMatchObject({
        name: 'site-a/menu',
        op: 'publish',
        rev: 2,
        by: { id: 'k1', label: 'reviewer' },
        requestId: 'req-1',
      });
      await store.set(record('b', { origins: ['https://b.example'] }));
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
        { name: 'b', version: 7 },
        { name: 'site-a/menu', version: 3 },
      ]);
      expect(await store.version('site-a/menu')).toBe(3);
      expect(await store.version('b')).toBe(7);
      expect(await store.version('nowhere')).toBeNull();
      expect((await store.get('b'))?.origins).toEqual(['https://b.example']);
      expect(await store.head()).toBe((await store.events(0, 10)).at(-1)?.id);
    });

    it('unpublishes: the record goes, the event names the revision that was published', async () => {
      const store = scope.repo.publish;
      await store.set(record('n', { rev: 4 }));
      const before = await store.head();
      const at = '2026-01-02T04:00:00.000Z';
      const event = await store.remove('n', { at, by: null, requestId: 'r' });
      expect(event).toMatchObject({
        name: 'n',
        op: 'unpublish',
        rev: 4,
        at,
        by: null,
        requestId: 'r',
      });
      expect(await store.get('n')).toBeNull();
      expect(await store.version('n')).toBeNull();
      expect(await store.versions()).toEqual([]);
      expect(await store.head()).toBeGreaterThan(before);
      // Nothing to unpublish: nothing logged.
      expect(await store.remove('n', { at, by: null })).toBeNull();
      expect(await store.head()).toBe(event?.id);
    });

    it('logs every publish and unpublish in order, paged by id', async () => {
      const store = scope.repo.publish;
      await store.set(record('a'));
      await store.set(record('b'));
      await store.remove('a', { at: '2026-01-02T04:00:00.000Z', by: null });
      const all = await store.events(0, 10);
      expect(all.map((e) => [e.name, e.op])).toEqual([
        ['a', 'publish'],
        ['b', 'publish'],
        ['a', 'unpublish'],
      ]);
      const ids = all.map((e) => e.id);
      expect([...ids].sort((x, y) => x - y)).toEqual(ids);
      expect(await store.events(ids[0] ?? 0, 1)).toEqual([all[1]]);
    });

    it('is seen by another connection to the same database', async () => {
      if (harness.connect === undefined) return;
      const other = scope.track(await harness.connect(scope.repo));
      await scope.repo.publish.set(record('shared'));
      expect((await other.publish.get('shared'))?.rev).toBe(2);
      expect(await other.publish.head()).toBe(await scope.repo.publish.head());
    });
  });
}
