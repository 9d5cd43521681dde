import { describe, expect, it, vi } from 'vitest';
import { BodyPermits, withBodyPermit } from './body-permits.js';
import { HttpError } from '../http-error.js';

describe('BodyPermits', () => {
  it('asks a permit for large bodies and bodies of unknown length only', () => {
    const permits = new BodyPermits(2, 1000);
    expect(permits.needs('1000', true)).toBe(false);
    expect(permits.needs('1001', true)).toBe(true);
    expect(permits.needs(undefined, true)).toBe(true);
    expect(permits.needs('lots', true)).toBe(true);
    expect(permits.needs(undefined, false)).toBe(false);
  });

  it('lets `permits` requests in at once and the next ones in arrival order as permits come back', async () => {
    const permits = new BodyPermits(2, 0);
    const first = await permits.acquire(1000);
    const second = await permits.acquire(1000);
    const order: string[] = [];
    const third = permits
      .acquire(1000)
      .then((release) => (order.push('third'), release));
    const fourth = permits
      .acquire(1000)
      .then((release) => (order.push('fourth'), release));
    await Promise.resolve();
    expect(permits.waiting).toBe(2);
    expect(order).toEqual([]);
    first?.();
    first?.(); // a second release of the same permit gives nothing back
    (await third)?.();
    second?.();
    (await fourth)?.();
    expect(order).toEqual(['third', 'fourth']);
    expect(permits.waiting).toBe(0);
    // Every permit is back: two can be taken again without waiting.
    expect(await permits.acquire(0)).toBeTypeOf('function');
    expect(await permits.acquire(0)).toBeTypeOf('function');
  });

  it('gives one client one permit at a time: its next request waits while other clients go ahead', async () => {
    const permits = new BodyPermits(2, 0);
    const first = await permits.acquire(1000, 'a');
    const order: string[] = [];
    const secondOfA = permits
      .acquire(1000, 'a')
      .then((release) => (order.push('a'), release));
    const ofB = permits
      .acquire(1000, 'b')
      .then((release) => (order.push('b'), release));
    await Promise.resolve();
    // B takes the free permit at once; A's second waits although a permit was free when it came.
    expect(await ofB).toBeTypeOf('function');
    expect(permits.waiting).toBe(1);
    first?.();
    (await secondOfA)?.();
    expect(order).toEqual(['b', 'a']);
  });

  it('gives up after the wait and leaves the queue as it was', async () => {
    vi.useFakeTimers();
    try {
      const permits = new BodyPermits(1, 0);
      const held = await permits.acquire(1000);
      const late = permits.acquire(1000);
      await vi.advanceTimersByTimeAsync(1000);
      expect(await late).toBeUndefined();
      expect(permits.waiting).toBe(0);
      held?.();
      expect(await permits.acquire(1000)).toBeTypeOf('function');
    } finally {
      vi.useRealTimers();
    }
  });

  it('answers 503 with Retry-After when no permit frees up, and releases a permit when the answer fails', async () => {
    vi.useFakeTimers();
    try {
      const permits = new BodyPermits(1, 10);
      await expect(
        withBodyPermit(permits, { contentLength: '11' }, () =>
          Promise.reject(new Error('boom')),
        ),
      ).rejects.toThrow('boom');
      const held = await permits.acquire(0);
      expect(held).toBeTypeOf('function');
      const refused = withBodyPermit(permits, { contentLength: '11' }, () =>
        Promise.resolve(new Response('late')),
      ).catch((error: unknown) => error);
      await vi.advanceTimersByTimeAsync(60_000);
      const error = await refused;
      expect(error).toBeInstanceOf(HttpError);
      expect(error).toMatchObject({
        status: 503,
        headers: { 'Retry-After': '2' },
      });
      // Small bodies never wait.
      const small = await withBodyPermit(permits, { contentLength: '10' }, () =>
        Promise.resolve(new Response('ok')),
      );
      expect(await small.text()).toBe('ok');
    } finally {
      vi.useRealTimers();
    }
  });
});
