import { beforeEach, expect, it } from 'vitest';
import type { ConfigRepository } from '../config-repository.js';
import { etagOf } from '../etag.js';
import {
  at,
  type RepositoryHarness,
  type RepositoryScope,
  stored,
  T1,
  T2,
} from './config-repository-fixtures.contract.js';

/** Storage and reads: what a write keeps, how names are listed and removed. */
export function runStorageContract(
  harness: RepositoryHarness,
  scope: RepositoryScope,
): void {
  let repo: ConfigRepository;
  beforeEach(() => {
    repo = scope.repo;
  });

  it('starts empty', async () => {
    expect(await repo.list()).toEqual([]);
    expect(await repo.get('x')).toBeNull();
    expect(await repo.version('x')).toBeNull();
    expect(await repo.count()).toBe(0);
    expect(await repo.head()).toBe(0);
    expect(await repo.readLog({ after: 0, limit: 10 })).toEqual({
      reset: false,
      head: 0,
      changes: [],
      events: [],
      through: 0,
    });
  });

  it('stores the JSON text byte for byte', async () => {
    const json =
      '{"z":1,"allLinks":{"9":{"url":"u"},"a":{"url":"v"}},"é":"\\u0000"}';
    await repo.put('n', json, at(T1));
    const row = await repo.get('n');
    expect(row?.json).toBe(json);
    expect(row?.createdAt).toBe(T1.toISOString());
    expect(row?.updatedAt).toBe(T1.toISOString());
  });

  it('keeps createdAt on overwrite, moves updatedAt, the version and the ETag', async () => {
    const first = stored(await repo.put('n', '{"allLinks":{}}', at(T1)));
    expect(first.created).toBe(true);
    expect(first.etag).toBe(etagOf(first));
    const second = stored(
      await repo.put('n', '{"allLinks":{"a":{"url":""}}}', at(T2)),
    );
    expect(second.created).toBe(false);
    expect(second.createdAt).toBe(T1.toISOString());
    expect(second.updatedAt).toBe(T2.toISOString());
    expect(second.version).toBeGreaterThan(first.version);
    expect(second.etag).not.toBe(first.etag);
    const row = await repo.get('n');
    expect(row?.json).toBe('{"allLinks":{"a":{"url":""}}}');
    expect(row?.version).toBe(second.version);
    expect(etagOf(row!)).toBe(second.etag);
    expect(await repo.version('n')).toBe(second.version);
  });

  it('gives every write a new revision, deletes included, across names', async () => {
    const a = stored(await repo.put('a', '{}', at(T1)));
    const b = stored(await repo.put('b', '{}', at(T1)));
    expect(await repo.head()).toBe(b.version);
    await repo.remove('a');
    const afterDelete = await repo.head();
    expect(afterDelete).toBeGreaterThan(b.version);
    const a2 = stored(await repo.put('a', '{}', at(T1)));
    expect(a2.version).toBeGreaterThan(afterDelete);
    expect(new Set([a.version, b.version, a2.version]).size).toBe(3);
  });

  it('lists names sorted by code point, with any characters', async () => {
    const names = ['b', 'a b', 'A', '%2F', 'a/b', 'é', '😀', 'Z', '10', '9'];
    for (const name of names) await repo.put(name, '{}', at(T1));
    const listed = await repo.list();
    const sorted = [...names].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
    expect(listed).toEqual(sorted);
    const versions = await repo.listVersions();
    expect(versions.map((v) => v.name)).toEqual(sorted);
    for (const { name, version } of versions) {
      expect(await repo.version(name)).toBe(version);
    }
    expect(await repo.count()).toBe(names.length);
  });

  it('removes, and treats a missing name as done without recording a change', async () => {
    await repo.put('n', '{}', at(T1));
    expect(await repo.remove('n')).toEqual({ ok: true, removed: true });
    const head = await repo.head();
    expect(await repo.remove('n')).toEqual({ ok: true, removed: false });
    expect(await repo.head()).toBe(head);
    expect(await repo.get('n')).toBeNull();
    expect(await repo.list()).toEqual([]);
  });

  it('resets createdAt when a removed name is created again', async () => {
    await repo.put('n', '{}', at(T1));
    await repo.remove('n');
    await repo.put('n', '{}', at(T2));
    expect((await repo.get('n'))?.createdAt).toBe(T2.toISOString());
  });

  it('keeps names apart that differ only in case or normalization', async () => {
    await repo.put('Cafe\u0301', '{"v":1}', at(T1));
    await repo.put('Caf\u00e9', '{"v":2}', at(T1));
    await repo.put('cafe\u0301', '{"v":3}', at(T1));
    expect(await repo.count()).toBe(3);
    expect((await repo.get('Caf\u00e9'))?.json).toBe('{"v":2}');
  });

  it('rejects calls after close', async () => {
    const other = await harness.create();
    await other.close();
    await expect(other.list()).rejects.toThrow(/closed/);
  });
}
