import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConfigRepository } from './config-repository.js';

/** How a contract run gets a fresh, empty repository (and cleans up after it). */
export interface RepositoryHarness {
  create(): Promise<ConfigRepository> | ConfigRepository;
  destroy?(repo: ConfigRepository): Promise<void> | void;
}

const T1 = new Date('2026-01-02T03:04:05.678Z');
const T2 = new Date('2026-02-03T04:05:06.789Z');

/** The one behaviour suite every `ConfigRepository` adapter must pass. */
export function runConfigRepositoryContract(
  label: string,
  harness: RepositoryHarness,
): void {
  describe(`ConfigRepository contract: ${label}`, () => {
    let repo: ConfigRepository;
    beforeEach(async () => {
      repo = await harness.create();
    });
    afterEach(async () => {
      await harness.destroy?.(repo);
      await repo.close();
    });

    it('starts empty', async () => {
      expect(await repo.list()).toEqual([]);
      expect(await repo.get('x')).toBeNull();
      expect(await repo.version('x')).toBeNull();
      expect(await repo.count()).toBe(0);
    });

    it('stores the JSON text byte for byte', async () => {
      const json =
        '{"z":1,"allLinks":{"9":{"url":"u"},"a":{"url":"v"}},"é":"\\u0000"}';
      await repo.put('n', json, T1);
      const row = await repo.get('n');
      expect(row?.json).toBe(json);
      expect(row?.createdAt).toBe(T1.toISOString());
      expect(row?.updatedAt).toBe(T1.toISOString());
    });

    it('keeps createdAt on overwrite, moves updatedAt and the version', async () => {
      const first = await repo.put('n', '{"allLinks":{}}', T1);
      expect(first.created).toBe(true);
      const second = await repo.put('n', '{"allLinks":{"a":{"url":""}}}', T2);
      expect(second.created).toBe(false);
      expect(second.createdAt).toBe(T1.toISOString());
      expect(second.updatedAt).toBe(T2.toISOString());
      expect(second.version).toBeGreaterThan(first.version);
      const row = await repo.get('n');
      expect(row?.json).toBe('{"allLinks":{"a":{"url":""}}}');
      expect(row?.version).toBe(second.version);
      expect(await repo.version('n')).toBe(second.version);
    });

    it('gives every write a new version, across names', async () => {
      const a = await repo.put('a', '{}', T1);
      const b = await repo.put('b', '{}', T1);
      await repo.remove('a');
      const a2 = await repo.put('a', '{}', T1);
      expect(new Set([a.version, b.version, a2.version]).size).toBe(3);
    });

    it('lists names sorted by code point, with any characters', async () => {
      const names = ['b', 'a b', 'A', '%2F', 'a/b', 'é', '😀', 'Z', '10', '9'];
      for (const name of names) await repo.put(name, '{}', T1);
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

    it('removes, and treats a missing name as done', async () => {
      await repo.put('n', '{}', T1);
      expect(await repo.remove('n')).toBe(true);
      expect(await repo.remove('n')).toBe(false);
      expect(await repo.get('n')).toBeNull();
      expect(await repo.list()).toEqual([]);
    });

    it('resets createdAt when a removed name is created again', async () => {
      await repo.put('n', '{}', T1);
      await repo.remove('n');
      await repo.put('n', '{}', T2);
      expect((await repo.get('n'))?.createdAt).toBe(T2.toISOString());
    });

    it('keeps names apart that differ only in case or normalization', async () => {
      await repo.put('Cafe\u0301', '{"v":1}', T1);
      await repo.put('Caf\u00e9', '{"v":2}', T1);
      await repo.put('cafe\u0301', '{"v":3}', T1);
      expect(await repo.count()).toBe(3);
      expect((await repo.get('Caf\u00e9'))?.json).toBe('{"v":2}');
    });

    it('rejects calls after close', async () => {
      const other = await harness.create();
      await other.close();
      await expect(other.list()).rejects.toThrow(/closed/);
    });
  });
}
