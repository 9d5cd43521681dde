import { describe, expect, it } from 'vitest';
import { Backoff } from './backoff.js';

describe('Backoff', () => {
  it('draws full-jitter delays under an exponential, capped ceiling', () => {
    const top = new Backoff({
      baseMs: 100,
      capMs: 1000,
      random: () => 0.999999,
    });
    expect([1, 2, 3, 4, 5, 6].map(() => top.next())).toEqual([
      99, 199, 399, 799, 999, 999,
    ]);
    const bottom = new Backoff({ baseMs: 100, capMs: 1000, random: () => 0 });
    expect(bottom.next()).toBe(0);
  });

  it('never waits less than Retry-After, and starts over after reset', () => {
    const b = new Backoff({ baseMs: 100, capMs: 1000, random: () => 0.5 });
    expect(b.next(5000)).toBe(5000);
    expect(b.next()).toBe(100);
    b.reset();
    expect(b.next()).toBe(50);
  });

  it('gives different delays for different random draws (jitter)', () => {
    let seed = 1;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const b = new Backoff({ baseMs: 1000, capMs: 1000, random });
    const delays = new Set(Array.from({ length: 10 }, () => b.next()));
    expect(delays.size).toBeGreaterThan(5);
  });
});
