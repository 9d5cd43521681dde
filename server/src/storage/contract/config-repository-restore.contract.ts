import { beforeEach, describe, expect, it } from 'vitest';
import type {
  ConfigRepository,
  RevisionRecord,
  SnapshotItem,
  StoredConfig,
} from '../config-repository.js';
import {
  at,
  type RepositoryHarness,
  type RepositoryScope,
  stored,
  T1,
  T2,
} from './config-repository-fixtures.contract.js';
import type { StoredKey } from '../key-repository.js';

/** A snapshot's items by kind. */
async function read(items: AsyncIterable<SnapshotItem>): Promise<{
  configs: StoredConfig[];
  revisions: RevisionRecord[];
  keys: StoredKey[];
}> {
  const out = {
    configs: [] as StoredConfig[],
    revisions: [] as RevisionRecord[],
    keys: [] as StoredKey[],
  };
  for await (const item of items) {
    if (item.kind === 'config') out.configs.push(item.config);
    else if (item.kind === 'revision') out.revisions.push(item.revision);
    else if (item.kind === 'key') out.keys.push(item.key);
  }
  return out;
}

const KEY: StoredKey = {
  id: 'k1',
  label: 'ops',
  scope: 'admin',
  configs: ['*'],
  secretHash: 'a'.repeat(64),
  expiresAt: null,
  createdAt: T1.toISOString(),
  lastUsedAt: null,
  revokedAt: null,
};

/** Everything a reader of history sees of `repo`. */
async function historyView(repo: ConfigRepository, names: readonly string[]) {
  const view: Record<string, unknown> = {
    trail: await repo.auditTrail({ afterId: 0, limit: 1000 }),
    deleted: await repo.deletedNames(),
    configs: await Promise.all(names.map((name) => repo.get(name))),
  };
  for (const name of names) {
    view[`history ${name}`] = await repo.history(name, { limit: 1000 });
    view[`revisions ${name}`] = await repo.revisions(name, {
      from: 1,
      to: 1000,
    });
  }
  return view;
}

/** A history with every op, an author, a request id, deltas and a delete. */
async function writeHistory(repo: ConfigRepository): Promise<void> {
  const by = { id: 'k1', label: 'ops' };
  const big = (mark: string): string =>
    JSON.stringify({
      allLinks: Object.fromEntries(
        Array.from({ length: 40 }, (_, i) => [
          `l${i}`,
          { url: `https://e.org/${i}`, label: i === 7 ? mark : `l${i}` },
        ]),
      ),
    });
  stored(await repo.put('a', big('one'), { ...at(T1), author: by }));
  stored(
    await repo.put('a', big('two'), {
      ...at(T2),
      op: 'patch',
      requestId: 'r-2',
    }),
  );
  stored(await repo.put('a', big('three'), { ...at(T2), op: 'restore' }));
  stored(await repo.put('gone', '{"allLinks":{}}', at(T1)));
  await repo.remove('gone', { ...at(T2), author: by });
  stored(await repo.put('\u{1F600}', '{"allLinks":{},"z":1,"a":2}', at(T1)));
  await repo.keys.insert(KEY);
}

/** Snapshots with history and keys, and writing them back (`restoreRows`). */
export function runRestoreContract(
  harness: RepositoryHarness,
  scope: RepositoryScope,
): void {
  let repo: ConfigRepository;
  beforeEach(() => {
    repo = scope.repo;
  });
  const names = ['a', 'gone', '\u{1F600}'];

  describe('snapshot and restore of history', () => {
    it('a snapshot holds every revision by name and rev, and the keys, as the reads give them', async () => {
      await writeHistory(repo);
      const snap = await read(repo.snapshot());
      expect(snap.configs.map((c) => c.name)).toEqual(['a', '\u{1F600}']);
      expect(snap.revisions.map((r) => `${r.meta.name} ${r.meta.rev}`)).toEqual(
        ['a 1', 'a 2', 'a 3', 'gone 1', 'gone 2', '\u{1F600} 1'],
      );
      expect(snap.revisions.map((r) => r.meta)).toEqual([
        ...(await repo.history('a', { limit: 10 })).reverse(),
        ...(await repo.history('gone', { limit: 10 })).reverse(),
        ...(await repo.history('\u{1F600}', { limit: 10 })),
      ]);
      // Deltas are kept as they are stored.
      expect(snap.revisions[1]?.content?.base).toBe(1);
      expect(snap.keys).toEqual([KEY]);
    });

    it('a snapshot does not see revisions written while it is read', async () => {
      for (let i = 0; i < 60; i++) {
        stored(
          await repo.put(`n${String(i).padStart(2, '0')}`, '{"allLinks":{}}'),
        );
      }
      const iterator = repo.snapshot()[Symbol.asyncIterator]();
      await iterator.next();
      stored(await repo.put('n00', '{"allLinks":{},"v":2}'));
      await repo.remove('n59');
      await repo.keys.insert(KEY);
      const rest = await read({ [Symbol.asyncIterator]: () => iterator });
      expect(rest.revisions).toHaveLength(60);
      expect(rest.revisions.every((r) => r.meta.rev === 1)).toBe(true);
      expect(rest.keys).toEqual([]);
    });

    it('restoreRows gives back the same history, audit trail and deleted names; writes go on after it', async () => {
      await writeHistory(repo);
      const before = await historyView(repo, names);
      const head = await repo.head();
      const snap = await read(repo.snapshot());
      const target = scope.track(await harness.create());
      // In two calls, as a restore sends batches.
      await target.restoreRows({ configs: snap.configs, revisions: [] });
      await target.restoreRows({ configs: [], revisions: snap.revisions });
      await target.keys.putAll(snap.keys);
      expect(await historyView(target, names)).toEqual(before);
      expect(await target.keys.findByHash(KEY.secretHash)).toEqual(KEY);
      expect(await target.head()).toBe(head);
      // A reader of the change feed from before re-lists.
      expect((await target.readLog({ after: 1, limit: 10 })).reset).toBe(true);
      const next = stored(await target.put('a', '{"allLinks":{}}'));
      expect(next.rev).toBe(4);
      expect(next.version).toBe(head + 1);
      const again = stored(await target.put('gone', '{"allLinks":{}}'));
      expect(again.rev).toBe(3);
      expect((await target.revisions('a', { from: 3, to: 3 }))[0]?.json).toBe(
        (await repo.get('a'))?.json,
      );
    });

    it('restoreRows refuses a name or a revision already stored, writing nothing; replace starts afresh', async () => {
      await writeHistory(repo);
      const snap = await read(repo.snapshot());
      const before = await historyView(repo, names);
      await expect(
        repo.restoreRows({
          configs: [],
          revisions: snap.revisions.slice(0, 1),
        }),
      ).rejects.toThrow();
      const extra = { ...snap.configs[0]!, name: 'new' } as StoredConfig;
      await expect(
        repo.restoreRows({ configs: [extra, ...snap.configs], revisions: [] }),
      ).rejects.toThrow();
      expect(await repo.get('new')).toBeNull();
      expect(await historyView(repo, names)).toEqual(before);
      stored(await repo.put('later', '{"allLinks":{}}'));
      await repo.restoreRows(
        { configs: snap.configs, revisions: snap.revisions },
        { replace: true },
      );
      expect(await repo.get('later')).toBeNull();
      expect(await repo.history('later', { limit: 10 })).toEqual([]);
      expect(await historyView(repo, names)).toEqual(before);
    });
  });
}
