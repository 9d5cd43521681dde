import { beforeEach, describe, expect, it } from 'vitest';
import type { ConfigRepository } from '../config-repository.js';
import type { StoredKey } from '../key-repository.js';
import type {
  RepositoryHarness,
  RepositoryScope,
} from './config-repository-fixtures.contract.js';

const key = (id: string, over: Partial<StoredKey> = {}): StoredKey => ({
  id,
  label: `label ${id}`,
  scope: 'write',
  configs: ['site-a/*', 'docs'],
  secretHash: `hash-${id}`,
  expiresAt: null,
  createdAt: '2026-01-02T03:04:05.678Z',
  lastUsedAt: null,
  revokedAt: null,
  ...over,
});

/** Access keys: what every adapter keeps of them, and how they are found, revoked and restored. */
export function runKeysContract(
  harness: RepositoryHarness,
  scope: RepositoryScope,
): void {
  describe('keys', () => {
    let repo: ConfigRepository;
    beforeEach(() => {
      repo = scope.repo;
    });

    it('starts without keys', async () => {
      expect(await repo.keys.hasAny()).toBe(false);
      expect(await repo.keys.list()).toEqual([]);
      expect(await repo.keys.findByHash('hash-a')).toBeNull();
    });

    it('keeps every field of a key and finds it by its hash only', async () => {
      const a = key('a', {
        scope: 'admin',
        configs: ['*', 'a,b?'],
        expiresAt: '2027-01-01T00:00:00.000Z',
      });
      await repo.keys.insert(a);
      expect(await repo.keys.hasAny()).toBe(true);
      expect(await repo.keys.findByHash('hash-a')).toEqual(a);
      expect(await repo.keys.findByHash('a')).toBeNull();
      expect(await repo.keys.list()).toEqual([a]);
    });

    it('refuses a second key with the same id or the same hash', async () => {
      await repo.keys.insert(key('a'));
      await expect(
        repo.keys.insert(key('a', { secretHash: 'other' })),
      ).rejects.toThrow();
      await expect(
        repo.keys.insert(key('b', { secretHash: 'hash-a' })),
      ).rejects.toThrow();
      expect(await repo.keys.list()).toHaveLength(1);
    });

    it('lists oldest first, then by id', async () => {
      await repo.keys.insert(
        key('c', { createdAt: '2026-01-03T00:00:00.000Z' }),
      );
      await repo.keys.insert(
        key('b', { createdAt: '2026-01-01T00:00:00.000Z' }),
      );
      await repo.keys.insert(
        key('a', { createdAt: '2026-01-03T00:00:00.000Z' }),
      );
      expect((await repo.keys.list()).map((k) => k.id)).toEqual([
        'b',
        'a',
        'c',
      ]);
    });

    it('revokes once (the first time stays) and says whether the id exists', async () => {
      await repo.keys.insert(key('a'));
      expect(await repo.keys.revoke('a', '2026-02-01T00:00:00.000Z')).toBe(
        true,
      );
      expect(await repo.keys.revoke('a', '2026-03-01T00:00:00.000Z')).toBe(
        true,
      );
      expect(await repo.keys.revoke('nope', '2026-03-01T00:00:00.000Z')).toBe(
        false,
      );
      expect((await repo.keys.findByHash('hash-a'))?.revokedAt).toBe(
        '2026-02-01T00:00:00.000Z',
      );
      // A revoked key still counts: revoking the last key never opens the server.
      expect(await repo.keys.hasAny()).toBe(true);
    });

    it('records the last use', async () => {
      await repo.keys.insert(key('a'));
      await repo.keys.touch('a', '2026-02-01T00:00:00.000Z');
      expect((await repo.keys.list())[0]?.lastUsedAt).toBe(
        '2026-02-01T00:00:00.000Z',
      );
    });

    it('restores rows as they are, replacing keys with the same id', async () => {
      await repo.keys.insert(key('a'));
      const rows = [
        key('a', { label: 'restored', revokedAt: '2026-02-01T00:00:00.000Z' }),
        key('b', { lastUsedAt: '2026-02-02T00:00:00.000Z' }),
      ];
      await repo.keys.putAll(rows);
      await repo.keys.putAll([]);
      expect(await repo.keys.list()).toEqual(rows);
    });

    it('shares keys with another connection to the same database', async () => {
      if (harness.connect === undefined) return;
      await repo.keys.insert(key('a'));
      const other = scope.track(await harness.connect(repo));
      expect((await other.keys.findByHash('hash-a'))?.id).toBe('a');
      await other.keys.revoke('a', '2026-02-01T00:00:00.000Z');
      expect((await repo.keys.findByHash('hash-a'))?.revokedAt).toBe(
        '2026-02-01T00:00:00.000Z',
      );
    });
  });
}
