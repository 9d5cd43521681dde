import { describe, expect, it } from 'vitest';
import { ManualClock, realTick } from '../test-clock.js';
import { HostPacer } from './host-pacer.js';

/** Tasks that end when the test says so, recording when each started (clock time) and how many ran. */
function tasks(clock: ManualClock) {
  const starts: { host: string; at: number; running: number }[] = [];
  const open = new Map<string, number>();
  let running = 0;
  const finishers: (() => void)[] = [];
  const task = (host: string) => () =>
    new Promise<void>((resolve) => {
      running++;
      open.set(host, (open.get(host) ?? 0) + 1);
      starts.push({ host, at: clock.now(), running });
      finishers.push(() => {
        running--;
        open.set(host, (open.get(host) ?? 1) - 1);
        resolve();
      });
    });
  return {
    starts,
    task,
    finishAll: () => finishers.splice(0).forEach((f) => f()),
  };
}

describe('HostPacer', () => {
  it('starts at most 2 at once per host, at least a second apart', async () => {
    const clock = new ManualClock();
    const pacer = new HostPacer(clock);
    const { starts, task, finishAll } = tasks(clock);
    const t0 = clock.now();
    const all = Promise.all(
      Array.from({ length: 6 }, () =>
        pacer.run('a.example', task('a.example')),
      ),
    );
    await realTick();
    expect(starts.map((s) => s.at - t0)).toEqual([0]);
    await clock.advance(1000);
    expect(starts.map((s) => s.at - t0)).toEqual([0, 1000]);
    // Two are running: the third waits for one of them, whatever the time.
    await clock.advance(5000);
    expect(starts).toHaveLength(2);
    expect(pacer.inFlight).toBe(2);
    expect(pacer.queued).toBe(4);
    finishAll();
    await realTick();
    await realTick();
    expect(starts.map((s) => s.at - t0)).toEqual([0, 1000, 6000]);
    await clock.advance(1000);
    expect(starts.map((s) => s.at - t0)).toEqual([0, 1000, 6000, 7000]);
    finishAll();
    await clock.advance(10_000);
    finishAll();
    await clock.advance(10_000);
    finishAll();
    await all;
    expect(Math.max(...starts.map((s) => s.running))).toBe(2);
  });

  it('runs at most 16 requests at once over all hosts, each host still paced', async () => {
    const clock = new ManualClock();
    const pacer = new HostPacer(clock);
    const { starts, task, finishAll } = tasks(clock);
    const hosts = Array.from({ length: 40 }, (_, i) => `h${i}.example`);
    const all = Promise.all(hosts.map((h) => pacer.run(h, task(h))));
    await realTick();
    expect(starts).toHaveLength(16);
    expect(pacer.inFlight).toBe(16);
    finishAll();
    await realTick();
    await realTick();
    expect(starts).toHaveLength(32);
    finishAll();
    await realTick();
    await realTick();
    finishAll();
    await all;
    expect(new Set(starts.map((s) => s.host)).size).toBe(40);
    expect(Math.max(...starts.map((s) => s.running))).toBe(16);
  });
});
