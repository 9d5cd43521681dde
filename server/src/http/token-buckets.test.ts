import { describe, expect, it } from 'vitest';
import { TokenBuckets } from './token-buckets.js';

describe('TokenBuckets', () => {
  it('lets a rested client spend a whole burst, then refuses with the wait', () => {
    const buckets = new TokenBuckets({ perSecond: 2, burst: 3 });
    expect([0, 0, 0].map(() => buckets.take('a', 1, 1000))).toEqual([0, 0, 0]);
    // Empty: one token comes back every half second.
    expect(buckets.take('a', 1, 1000)).toBeCloseTo(0.5);
    expect(buckets.take('a', 1, 1250)).toBeCloseTo(0.25);
    expect(buckets.take('a', 1, 1500)).toBe(0);
  });

  it('refills up to the burst and no further', () => {
    const buckets = new TokenBuckets({ perSecond: 10, burst: 5 });
    for (let i = 0; i < 5; i++) buckets.take('a', 1, 0);
    // An hour later the bucket holds 5, not 36,000.
    let allowed = 0;
    while (buckets.take('a', 1, 3_600_000) === 0) allowed++;
    expect(allowed).toBe(5);
  });

  it('keeps clients apart', () => {
    const buckets = new TokenBuckets({ perSecond: 1, burst: 1 });
    expect(buckets.take('a', 1, 0)).toBe(0);
    expect(buckets.take('a', 1, 0)).toBeGreaterThan(0);
    expect(buckets.take('b', 1, 0)).toBe(0);
  });

  it('charges a whole cost, and never one above the burst (issue 29, item 4: a batch cost at most a burst)', () => {
    const buckets = new TokenBuckets({ perSecond: 1, burst: 4 });
    expect(buckets.burst).toBe(4);
    expect(buckets.take('a', 3, 0)).toBe(0);
    expect(buckets.take('a', 3, 0)).toBeCloseTo(2);
    // More than a bucket ever holds: never paid, and nothing is taken.
    expect(buckets.take('b', 100, 0)).toBe(Infinity);
    expect(buckets.take('b', 4, 0)).toBe(0);
    expect(buckets.take('b', 1, 0)).toBeCloseTo(1);
  });

  it('forgets buckets that are full again, without timers', () => {
    const buckets = new TokenBuckets({ perSecond: 1, burst: 2 });
    for (let i = 0; i < 3; i++) buckets.take(`client-${i}`, 1, 0);
    expect(buckets.size).toBe(3);
    // Two seconds later the three are full again, the same as never seen: a request drops them.
    buckets.take('late', 1, 2000);
    expect(buckets.size).toBe(1);
  });

  it('tracks at most maxClients, forgetting the least recently seen', () => {
    const buckets = new TokenBuckets({
      perSecond: 0.001,
      burst: 1,
      maxClients: 3,
    });
    for (const key of ['a', 'b', 'c']) buckets.take(key, 1, 0);
    expect(buckets.take('a', 1, 1)).toBeGreaterThan(0);
    buckets.take('d', 1, 2);
    expect(buckets.size).toBe(3);
    // 'b' was the least recently seen and was forgotten: it starts again full; 'a' was kept, still empty.
    expect(buckets.take('b', 1, 3)).toBe(0);
    expect(buckets.take('a', 1, 3)).toBeGreaterThan(0);
  });
});
