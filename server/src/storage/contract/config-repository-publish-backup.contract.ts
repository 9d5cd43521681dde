import { describe, expect, it } from 'vitest';
import type { ConfigRepository, SnapshotItem } from '../config-repository.js';
import { etagOf } from '../etag.js';
import type { StoredPublish } from '../publish-store.js';
import {
  at,
  type RepositoryHarness,
  type RepositoryScope,
  stored,
  T1,
  T2,
} from './config-repository-fixtures.contract.js';

/** A snapshot's items in order, and its rows by kind. */
async function read(repo: ConfigRepository) {
  const items: SnapshotItem[] = [];
  for await (const item of repo.snapshot()) items.push(item);
  const of = <K extends SnapshotItem['kind']>(kind: K) =>
    items.filter(
      (item): item is Extract<SnapshotItem, { kind: K }> => item.kind === kind,
    );
  return {
    kinds: items.map((item) => item.kind),
    configs: of('config').map((item) => item.config),
    revisions: of('revision').map((item) => item.revision),
    published: of('publish').map((item) => item.publish),
  };
}

/** The record that publishes the stored revision `rev` of `name`. */
async function recordOf(
  repo: ConfigRepository,
  [name, rev]: [string, number],
  over: Partial<StoredPublish> = {},
): Promise<StoredPublish> {
  const [found] = await repo.revisions(name, { from: rev, to: rev });
  if (found?.json === null || found === undefined) throw new Error('no text');
  const head = await repo.get(name);
  return {
    name,
    rev,
    version: found.meta.id,
    json: found.json,
    createdAt: head?.createdAt ?? found.meta.at,
    updatedAt: found.meta.at,
    etag: etagOf({ version: found.meta.id, updatedAt: found.meta.at }),
    origins: null,
    hideBroken: false,
    publishedAt: T2.toISOString(),
    publishedBy: { id: 'k1', label: 'reviewer' },
    ...over,
  };
}

/** Two configs, one with two revisions, each published (one rolled back), plus a deleted one's record. */
async function writePublished(repo: ConfigRepository): Promise<void> {
  stored(await repo.put('site-b/menu', '{"allLinks":{},"v":1}', at(T1)));
  stored(await repo.put('site-a/menu', '{"allLinks":{},"v":1}', at(T1)));
  stored(await repo.put('site-a/menu', '{"allLinks":{},"v":2}', at(T2)));
  stored(await repo.put('gone', '{"allLinks":{}}', at(T1)));
  await repo.publish.set(
    await recordOf(repo, ['site-a/menu', 1], {
      origins: ['https://site-a.example'],
      hideBroken: true,
    }),
  );
  await repo.publish.set(await recordOf(repo, ['site-b/menu', 1]));
  await repo.publish.set(
    await recordOf(repo, ['gone', 1], { publishedBy: null }),
  );
  await repo.remove('gone', at(T2));
}

/** Publish records in snapshots (backups) and in `restoreRows`. */
export function runPublishBackupContract(
  harness: RepositoryHarness,
  scope: RepositoryScope,
): void {
  describe('publish records in snapshot and restore', () => {
    it('a snapshot holds every publish record as stored, by name, after the configs and before the revisions', async () => {
      const repo = scope.repo;
      await writePublished(repo);
      const snap = await read(repo);
      expect(snap.published.map((p) => p.name)).toEqual([
        'gone',
        'site-a/menu',
        'site-b/menu',
      ]);
      for (const record of snap.published) {
        expect(record).toEqual(await repo.publish.get(record.name));
      }
      const first = snap.kinds.indexOf('publish');
      expect(snap.kinds.slice(0, first).every((k) => k === 'config')).toBe(
        true,
      );
      expect(snap.kinds.lastIndexOf('publish')).toBeLessThan(
        snap.kinds.indexOf('revision'),
      );
    });

    it('a snapshot does not see a publish made while it is read', async () => {
      const repo = scope.repo;
      await writePublished(repo);
      const iterator = repo.snapshot()[Symbol.asyncIterator]();
      await iterator.next();
      await repo.publish.set(await recordOf(repo, ['site-a/menu', 2]));
      await repo.publish.remove('site-b/menu', {
        at: T2.toISOString(),
        by: null,
      });
      const rest: StoredPublish[] = [];
      for await (const item of { [Symbol.asyncIterator]: () => iterator }) {
        if (item.kind === 'publish') rest.push(item.publish);
      }
      expect(rest.map((p) => `${p.name} ${p.rev}`)).toEqual([
        'gone 1',
        'site-a/menu 1',
        'site-b/menu 1',
      ]);
    });

    it('restoreRows writes the records as stored, in the transaction of the rows beside them', async () => {
      const repo = scope.repo;
      await writePublished(repo);
      const snap = await read(repo);
      const target = scope.track(await harness.create());
      await target.restoreRows({
        configs: snap.configs,
        revisions: snap.revisions,
        published: snap.published,
      });
      for (const record of snap.published) {
        expect(await target.publish.get(record.name)).toEqual(record);
      }
      expect(await target.publish.versions()).toEqual(
        await repo.publish.versions(),
      );
      expect(await target.publish.origins()).toEqual(
        await repo.publish.origins(),
      );
      // A name with a record already: refused, and nothing of the call is written.
      const extra = { ...snap.configs[0]!, name: 'extra' };
      await expect(
        target.restoreRows({
          configs: [extra],
          revisions: [],
          published: snap.published.slice(0, 1),
        }),
      ).rejects.toThrow();
      expect(await target.get('extra')).toBeNull();
      expect(await target.publish.get('gone')).toEqual(snap.published[0]);
    });

    it('restoreRows with replace removes the records there were first', async () => {
      const repo = scope.repo;
      await writePublished(repo);
      const snap = await read(repo);
      const siteB = snap.published.filter((p) => p.name === 'site-b/menu');
      await repo.restoreRows(
        { configs: snap.configs, revisions: snap.revisions, published: siteB },
        { replace: true },
      );
      expect((await repo.publish.versions()).map((v) => v.name)).toEqual([
        'site-b/menu',
      ]);
      // Rows without records (a backup made before records were kept) publish nothing.
      await repo.restoreRows(
        { configs: snap.configs, revisions: snap.revisions },
        { replace: true },
      );
      expect(await repo.publish.versions()).toEqual([]);
    });
  });
}
