import { describe, expect, it } from 'vitest';
import { WeightedLru } from './weighted-lru.js';

describe('WeightedLru', () => {
  const lru = () => new WeightedLru<string, string>({ name: 't', budget: 100 });

  it('bounds entries by summed weight, evicting the least recently used first', () => {
    const cache = lru();
    cache.set('a', 'A', 40);
    cache.set('b', 'B', 40);
    cache.get('a');
    cache.set('c', 'C', 40);
    expect(cache.peek('b')).toBeUndefined();
    expect(cache.peek('a')).toBe('A');
    expect(cache.peek('c')).toBe('C');
    expect(cache.stats()).toMatchObject({
      entries: 2,
      bytes: 80,
      evictions: 1,
    });
  });

  it('stores nothing heavier than the whole budget', () => {
    const cache = lru();
    cache.set('a', 'A', 10);
    expect(cache.set('huge', 'H', 101)).toBe(false);
    expect(cache.peek('huge')).toBeUndefined();
    expect(cache.stats().bytes).toBe(10);
  });

  it('stores with setIfRoom only what fits beside the entries held, evicting none', () => {
    const cache = lru();
    cache.set('a', 'A', 40);
    cache.set('b', 'B', 40);
    expect(cache.setIfRoom('c', 'C', 30)).toBe(false);
    expect(cache.peek('c')).toBeUndefined();
    expect(cache.setIfRoom('d', 'D', 20)).toBe(true);
    expect(cache.setIfRoom('b', 'B2', 40)).toBe(true);
    expect(cache.peek('b')).toBe('B2');
    expect(cache.stats()).toMatchObject({
      entries: 3,
      bytes: 100,
      evictions: 0,
    });
  });

  it('evicts others when an entry grows, and drops an entry that outgrows the budget', () => {
    const cache = lru();
    cache.set('a', 'A', 30);
    cache.set('b', 'B', 30);
    cache.reweigh('b', 90);
    expect(cache.peek('a')).toBeUndefined();
    expect(cache.stats().bytes).toBe(90);
    cache.reweigh('b', 120);
    expect(cache.peek('b')).toBeUndefined();
    expect(cache.stats()).toMatchObject({ entries: 0, bytes: 0 });
  });

  it('counts hits and misses', () => {
    const cache = lru();
    cache.set('a', 'A', 1);
    cache.get('a');
    cache.get('x');
    expect(cache.stats()).toMatchObject({ hits: 1, misses: 1 });
  });
});
