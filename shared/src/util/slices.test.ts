import { describe, expect, it } from 'vitest';
import { runAtOnce, runInSlices, slicePauser } from './slices.js';
import type { Sliced } from './slices.js';

/** Counts to `n`, yielding after each count, logging what it does; `work` is called per step. */
function* counting(
  n: number,
  log: string[],
  work: () => void = () => undefined,
): Sliced<number> {
  for (let i = 1; i <= n; i++) {
    log.push(`step ${i}`);
    work();
    yield;
  }
  return n;
}

describe('runAtOnce', () => {
  it('runs every step and returns the result', () => {
    const log: string[] = [];
    expect(runAtOnce(counting(3, log))).toBe(3);
    expect(log).toEqual(['step 1', 'step 2', 'step 3']);
  });
});

describe('runInSlices', () => {
  it('pauses once a slice has run sliceMs, and not before', async () => {
    const log: string[] = [];
    let clock = 0;
    // Every step costs 10 ms.
    const steps = counting(6, log, () => (clock += 10));
    const result = await runInSlices(steps, {
      sliceMs: 20,
      now: () => clock,
      pause: () => {
        log.push('pause');
        return Promise.resolve();
      },
    });
    expect(result).toBe(6);
    expect(log).toEqual([
      'step 1',
      'step 2',
      'pause',
      'step 3',
      'step 4',
      'pause',
      'step 5',
      'step 6',
      'pause',
    ]);
  });

  it('lets other work run in the pauses (a macrotask between slices)', async () => {
    const log: string[] = [];
    setTimeout(() => log.push('other work'), 0);
    await runInSlices(counting(2, log), {
      sliceMs: 0,
      pause: () => new Promise((r) => setTimeout(r, 1)),
    });
    expect(log.indexOf('other work')).toBeGreaterThan(0);
    expect(log.indexOf('other work')).toBeLessThan(log.length - 1);
  });

  it('never pauses a computation that finishes within one slice', async () => {
    let pauses = 0;
    await runInSlices(counting(100, []), {
      sliceMs: 1_000_000,
      pause: () => Promise.resolve(void (pauses += 1)),
    });
    expect(pauses).toBe(0);
  });
});

describe('slicePauser', () => {
  it('answers a pause once the slice has run sliceMs, and starts a new slice after it', async () => {
    let clock = 0;
    let pauses = 0;
    const pauseIfDue = slicePauser({
      sliceMs: 10,
      now: () => clock,
      pause: () => {
        pauses++;
        clock += 1;
        return Promise.resolve();
      },
    });
    clock = 9;
    expect(pauseIfDue()).toBeUndefined();
    clock = 10;
    const paused = pauseIfDue();
    expect(paused).toBeInstanceOf(Promise);
    await paused;
    expect(pauses).toBe(1);
    clock = 20;
    expect(pauseIfDue()).toBeUndefined();
    clock = 21;
    await pauseIfDue();
    expect(pauses).toBe(2);
  });
});
