import { beforeEach, describe, expect, it } from 'vitest';
import type { ConfigRepository, StoredConfig } from '../config-repository.js';
import {
  at,
  refused,
  type RepositoryHarness,
  type RepositoryScope,
  stored,
  T1,
  T2,
} from './config-repository-fixtures.contract.js';

/** An update that adds `key` to the stored object (a missing name is an error). */
const adding =
  (key: string) =>
  (current: StoredConfig | null): { json: string } => {
    if (current === null) throw new Error('missing');
    const value = JSON.parse(current.json) as Record<string, unknown>;
    return { json: JSON.stringify({ ...value, [key]: true }) };
  };

/** Updates: a change decided from the stored version, inside the write's transaction. */
export function runUpdateContract(
  harness: RepositoryHarness,
  scope: RepositoryScope,
): void {
  let repo: ConfigRepository;
  beforeEach(() => {
    repo = scope.repo;
  });

  describe('update (a change of the stored version)', () => {
    it('decides from the version it commits over and records the write like a put', async () => {
      const first = stored(await repo.put('n', '{"a":1}', at(T1)));
      const seen: (StoredConfig | null)[] = [];
      const result = stored(
        await repo.update(
          'n',
          (current) => {
            seen.push(current);
            return { json: '{"a":2}' };
          },
          { ...at(T2), op: 'patch' },
        ),
      );
      expect(seen).toEqual([
        {
          name: 'n',
          json: '{"a":1}',
          createdAt: first.createdAt,
          updatedAt: first.updatedAt,
          version: first.version,
        },
      ]);
      expect(result.version).toBeGreaterThan(first.version);
      expect(result.rev).toBe(2);
      expect((await repo.get('n'))?.json).toBe('{"a":2}');
      const [newest] = await repo.history('n', { limit: 1 });
      expect(newest?.op).toBe('patch');
      const [revision] = await repo.revisions('n', { from: 1, to: 1 });
      expect(revision?.json).toBe('{"a":1}');
    });

    it('hands a missing name to the decision as null', async () => {
      const result = stored(
        await repo.update('n', (current) => ({
          json: current === null ? '{"new":true}' : '{}',
        })),
      );
      expect(result.created).toBe(true);
      expect((await repo.get('n'))?.json).toBe('{"new":true}');
    });

    it('applies every one of 20 concurrent updates, over two connections where the adapter has them', async () => {
      stored(await repo.put('n', '{}', at(T1)));
      const other = harness.connect
        ? scope.track(await harness.connect(repo))
        : repo;
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 === 0 ? repo : other).update('n', adding(`k${i}`)),
        ),
      );
      expect(results.every((r) => r.ok)).toBe(true);
      const value = JSON.parse((await repo.get('n'))?.json ?? '{}') as object;
      expect(Object.keys(value).sort()).toEqual(
        Array.from({ length: 20 }, (_, i) => `k${i}`).sort(),
      );
      expect((await repo.history('n', { limit: 100 })).length).toBe(21);
    });

    it('checks If-Match inside the write and does not decide when it fails', async () => {
      const first = stored(await repo.put('n', '{"a":1}', at(T1)));
      const second = stored(await repo.put('n', '{"a":2}', at(T2)));
      let decided = 0;
      const stale = refused(
        await repo.update(
          'n',
          () => {
            decided++;
            return { json: '{"a":3}' };
          },
          { ifMatch: [first.etag] },
        ),
      );
      expect(stale.currentEtag).toBe(second.etag);
      expect(decided).toBe(0);
      stored(await repo.update('n', adding('b'), { ifMatch: [second.etag] }));
      expect((await repo.get('n'))?.json).toBe('{"a":2,"b":true}');
    });

    it('stores nothing and takes no revision when the decision throws', async () => {
      stored(await repo.put('n', '{"a":1}', at(T1)));
      const head = await repo.head();
      await expect(
        repo.update('n', () => {
          throw new Error('not valid');
        }),
      ).rejects.toThrow('not valid');
      await expect(repo.update('missing', adding('x'))).rejects.toThrow(
        'missing',
      );
      expect(await repo.head()).toBe(head);
      expect((await repo.get('n'))?.json).toBe('{"a":1}');
      expect(await repo.get('missing')).toBeNull();
      // The connection is still usable after the rolled-back write.
      stored(await repo.update('n', adding('b')));
      expect(await repo.head()).toBeGreaterThan(head);
    });
  });
}
