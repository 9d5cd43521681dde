import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VersionCache } from './cache-policy.js';
import type { CachedVersion } from './cache-policy.js';
import { FrequencySketch } from './frequency-sketch.js';

/** A cache of versions with 100 bytes beside its sketch of uses (32 bytes, weighed in its budget). */
const cache100 = () =>
  new VersionCache(132, 'versions', new FrequencySketch(16));

const version = (name: string, weight = 40): CachedVersion => ({
  name,
  version: 1,
  weight,
  onWeightChange: undefined,
});

/** A cache holding `a` and `b` (40 bytes each) in 100 bytes, `a` the least recently used. */
function full(): VersionCache {
  const cache = cache100();
  cache.set(version('a'));
  cache.set(version('b'));
  return cache;
}

describe('VersionCache.offer', () => {
  it('keeps what fits beside the versions held', () => {
    const cache = cache100();
    cache.set(version('a'));
    expect(cache.offer(version('b'))).toBe(true);
    expect(cache.peek('a')?.name).toBe('a');
  });

  it('evicts nothing for a version asked for as often as those held (a scan)', () => {
    const cache = full();
    for (const name of ['a', 'b', 'c', 'd', 'e']) cache.get(name, 1);
    for (const name of ['c', 'd', 'e'])
      expect(cache.offer(version(name))).toBe(false);
    expect(cache.peek('a')?.name).toBe('a');
    expect(cache.peek('b')?.name).toBe('b');
    expect(cache.stats()).toMatchObject({ entries: 2, bytes: 80 });
  });

  it('keeps a version asked for more than twice as often as the least recently used ones, evicting those only', () => {
    const cache = full();
    for (let i = 0; i < 3; i++) cache.get('hot', 1);
    cache.get('a', 1);
    cache.get('b', 1);
    // `a` and `b` asked once since (now `a` least recently used): `hot` (3 uses) takes `a`'s place.
    expect(cache.offer(version('hot'))).toBe(true);
    expect(cache.peek('hot')?.name).toBe('hot');
    expect(cache.peek('a')).toBeUndefined();
    expect(cache.peek('b')?.name).toBe('b');
  });

  it('refuses a version that would evict one asked for half as often or more', () => {
    const cache = full();
    cache.get('b', 1);
    for (let i = 0; i < 3; i++) {
      cache.get('hot', 1);
      cache.get('a', 1);
    }
    // Making room takes both held versions: `b` (least recently used) is asked for less, but `a` is not.
    expect(cache.offer(version('hot', 90))).toBe(false);
    expect(cache.peek('a')?.name).toBe('a');
    expect(cache.peek('b')?.name).toBe('b');
    // Making room takes `b` only.
    expect(cache.offer(version('hot'))).toBe(true);
    expect(cache.peek('a')?.name).toBe('a');
    expect(cache.peek('b')).toBeUndefined();
  });

  it('weighs its sketch of uses in its budget, a counter per 64 bytes and 64 KiB at most', () => {
    expect(new VersionCache(1024 * 1024).stats().budget).toBe(
      1024 * 1024 - 16_384,
    );
    expect(new VersionCache(256 * 1024 * 1024).stats().budget).toBe(
      256 * 1024 * 1024 - 65_536,
    );
  });

  it('never keeps a version heavier than the whole budget', () => {
    const cache = full();
    for (let i = 0; i < 5; i++) cache.get('huge', 1);
    expect(cache.offer(version('huge', 101))).toBe(false);
    expect(cache.stats()).toMatchObject({ entries: 2, bytes: 80 });
  });
});

describe('VersionCache.admits', () => {
  it('tells, without changing anything, whether offer would keep a version of that weight', () => {
    const op = fc.record({
      kind: fc.constantFrom('get', 'set', 'offer'),
      name: fc.constantFrom('a', 'b', 'c', 'd', 'e'),
      weight: fc.integer({ min: 1, max: 110 }),
    });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        const cache = cache100();
        for (const { kind, name, weight } of ops) {
          if (kind === 'get') cache.get(name, 1);
          else if (kind === 'set') cache.set(version(name, weight));
          else {
            const before = cache.stats();
            const admits = cache.admits(name, weight);
            expect(cache.stats()).toEqual(before);
            expect(cache.offer(version(name, weight))).toBe(admits);
          }
        }
      }),
      { numRuns: 500 },
    );
  });
});
