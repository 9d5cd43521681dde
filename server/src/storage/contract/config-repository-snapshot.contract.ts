import { beforeEach, expect, it } from 'vitest';
import type {
  ConfigRepository,
  SnapshotItem,
  StoredConfig,
} from '../config-repository.js';
import {
  at,
  type RepositoryScope,
  stored,
  T1,
  T2,
} from './config-repository-fixtures.contract.js';

/** The configs of a snapshot. */
async function all(
  items: AsyncIterable<SnapshotItem>,
): Promise<StoredConfig[]> {
  const out: StoredConfig[] = [];
  for await (const item of items) {
    if (item.kind === 'config') out.push(item.config);
  }
  return out;
}

/** Snapshots (backups) and the kept creation time of a restore. */
export function runSnapshotContract(scope: RepositoryScope): void {
  let repo: ConfigRepository;
  beforeEach(() => {
    repo = scope.repo;
  });

  it('a snapshot gives every config as stored, in code-point order of names', async () => {
    expect(await all(repo.snapshot())).toEqual([]);
    const names = ['b', 'a', '\u{1F600}', '\uFF5E', 'a b'];
    for (const name of names) {
      await repo.put(
        name,
        `{"allLinks":{},"n":${JSON.stringify(name)}}`,
        at(T1),
      );
    }
    const rows = await all(repo.snapshot());
    expect(rows.map((row) => row.name)).toEqual([
      'a',
      'a b',
      'b',
      '\uFF5E',
      '\u{1F600}',
    ]);
    for (const row of rows) expect(row).toEqual(await repo.get(row.name));
  });

  it('a snapshot does not see writes made while it is read', async () => {
    for (let i = 0; i < 120; i++) {
      await repo.put(
        `n${String(i).padStart(3, '0')}`,
        `{"allLinks":{},"i":${i}}`,
      );
    }
    const iterator = repo.snapshot()[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(first.value).toMatchObject({ config: { name: 'n000' } });
    await repo.put('n119', '{"allLinks":{},"i":"changed"}');
    await repo.remove('n060');
    await repo.put('n999', '{"allLinks":{}}');
    const rest = await all({ [Symbol.asyncIterator]: () => iterator });
    expect(rest).toHaveLength(119);
    expect(rest.map((row) => row.name)).toContain('n060');
    expect(rest.map((row) => row.name)).not.toContain('n999');
    expect(rest.at(-1)?.json).toBe('{"allLinks":{},"i":119}');
  });

  it('a snapshot read only in part lets the repository go on', async () => {
    await repo.put('a', '{"allLinks":{}}');
    await repo.put('b', '{"allLinks":{}}');
    for await (const item of repo.snapshot()) {
      expect(item).toMatchObject({ kind: 'config', config: { name: 'a' } });
      break;
    }
    stored(await repo.put('c', '{"allLinks":{}}'));
    expect(await all(repo.snapshot())).toHaveLength(3);
  });

  it('a write of a new name keeps a given createdAt (a restore), never one after its updatedAt', async () => {
    const kept = stored(
      await repo.put('r', '{"allLinks":{}}', {
        ...at(T2),
        createdAt: T1.toISOString(),
      }),
    );
    expect(kept).toMatchObject({
      createdAt: T1.toISOString(),
      updatedAt: T2.toISOString(),
    });
    const later = stored(
      await repo.put('s', '{"allLinks":{}}', {
        ...at(T1),
        createdAt: T2.toISOString(),
      }),
    );
    expect(later.createdAt).toBe(T1.toISOString());
    // An existing name keeps its own.
    const over = stored(
      await repo.put('r', '{"allLinks":{}}', {
        ...at(T2),
        createdAt: '2020-01-01T00:00:00.000Z',
      }),
    );
    expect(over.createdAt).toBe(T1.toISOString());
    expect((await repo.get('r'))?.createdAt).toBe(T1.toISOString());
  });
}
