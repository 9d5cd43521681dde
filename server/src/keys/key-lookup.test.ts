import { describe, expect, it } from 'vitest';
import { WeightedLru } from '../cache/weighted-lru.js';
import type { KeyRepository, StoredKey } from '../storage/key-repository.js';
import { KeyLookup } from './key-lookup.js';
import type { KeptKey } from './key-lookup.js';
import { SECRET_PREFIX, secretHash } from './key-secret.js';

const secretOf = (id: string): string => `${SECRET_PREFIX}${id}-secret`;

const stored = (id: string): StoredKey => ({
  id,
  label: id,
  scope: 'read',
  configs: ['*'],
  secretHash: secretHash(secretOf(id)),
  expiresAt: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  lastUsedAt: null,
  revokedAt: null,
});

/** Keys `a` and `b` in a repository that counts its reads and use records. */
function repository(): KeyRepository & { reads: number; touches: string[] } {
  const keys = [stored('a'), stored('b')];
  const repo = {
    reads: 0,
    touches: [] as string[],
    insert: () => Promise.resolve(),
    list: () => Promise.resolve(keys),
    findByHash: (hash: string) => {
      repo.reads++;
      return Promise.resolve(keys.find((k) => k.secretHash === hash) ?? null);
    },
    revoke: () => Promise.resolve(false),
    touch: (id: string) => {
      repo.touches.push(id);
      return Promise.resolve();
    },
    hasAny: () => Promise.resolve(true),
    putAll: () => Promise.resolve(),
  };
  return repo;
}

describe('KeyLookup', () => {
  it('keeps found keys in the cache it is given, within its byte budget', async () => {
    const repo = repository();
    let clock = 0;
    // Room for one key: the two evict each other.
    const cache = new WeightedLru<string, KeptKey>({
      name: 'keys',
      budget: 600,
    });
    const lookup = new KeyLookup(repo, cache, { now: () => clock });
    expect((await lookup.find(secretOf('a')))?.id).toBe('a');
    expect((await lookup.find(secretOf('a')))?.id).toBe('a');
    expect(repo.reads).toBe(1);
    expect((await lookup.find(secretOf('b')))?.id).toBe('b');
    expect(cache.stats()).toMatchObject({ entries: 1 });
    expect(cache.stats().bytes).toBeLessThanOrEqual(600);
    await lookup.find(secretOf('a'));
    expect(repo.reads).toBe(3);
    // Past its time limit a kept key is read again.
    clock = 1_000;
    await lookup.find(secretOf('a'));
    expect(repo.reads).toBe(4);
  });

  it('keeps no unknown secret, and records a use at most once per interval across reads', async () => {
    const repo = repository();
    let clock = 0;
    const cache = new WeightedLru<string, KeptKey>({
      name: 'keys',
      budget: 1 << 20,
    });
    const lookup = new KeyLookup(repo, cache, {
      now: () => clock,
      ttlMs: 500,
      touchEveryMs: 60_000,
    });
    expect(await lookup.find(`${SECRET_PREFIX}invented`)).toBeNull();
    expect(cache.stats().entries).toBe(0);
    for (clock = 0; clock < 50_000; clock += 1_000) {
      await lookup.find(secretOf('a'));
    }
    expect(repo.touches).toEqual(['a']);
    clock = 61_000;
    await lookup.find(secretOf('a'));
    expect(repo.touches).toEqual(['a', 'a']);
  });
});
