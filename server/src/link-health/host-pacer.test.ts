import { describe, expect, it } from 'vitest';
import { ManualClock, realTick } from '../test-clock.js';
import { HostPacer, POLITE, SPACING_MARGIN_MS } from './host-pacer.js';
import type { Sent } from './host-pacer.js';

/** Between two requests to one host: a second and the margin after the first was sent. */
const GAP = POLITE.spacingMs + SPACING_MARGIN_MS;

/** Tasks that end when the test says so, recording when each started (clock time) and how many ran. */
function tasks(clock: ManualClock) {
  const starts: { host: string; at: number; running: number }[] = [];
  const open = new Map<string, number>();
  let running = 0;
  const finishers: (() => void)[] = [];
  // Each request leaves at once (`sent` as it starts).
  const task = (host: string) => (sent: Sent) =>
    new Promise<void>((resolve) => {
      sent();
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
    // A second and the margin after the first left.
    await clock.advance(GAP - 1);
    expect(starts.map((s) => s.at - t0)).toEqual([0]);
    await clock.advance(1);
    expect(starts.map((s) => s.at - t0)).toEqual([0, GAP]);
    // Two are running: the third waits for one of them, whatever the time.
    await clock.advance(5000);
    expect(starts).toHaveLength(2);
    expect(pacer.inFlight).toBe(2);
    expect(pacer.queued).toBe(4);
    finishAll();
    await realTick();
    await realTick();
    expect(starts.map((s) => s.at - t0)).toEqual([0, GAP, GAP + 5000]);
    await clock.advance(GAP);
    expect(starts.map((s) => s.at - t0)).toEqual([
      0,
      GAP,
      GAP + 5000,
      2 * GAP + 5000,
    ]);
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

  it('spaces from the moment a request leaves, and lets nothing go while one has not left', async () => {
    const clock = new ManualClock();
    const pacer = new HostPacer(clock);
    const t0 = clock.now();
    const starts: number[] = [];
    /** Per started task: tell it left, and end it. */
    const started: { sent: Sent; end: () => void }[] = [];
    const all = Promise.all(
      Array.from({ length: 3 }, () =>
        pacer.run(
          'a.example',
          (sent) =>
            new Promise<void>((resolve) => {
              starts.push(clock.now() - t0);
              started.push({ sent, end: resolve });
            }),
        ),
      ),
    );
    await realTick();
    expect(starts).toEqual([0]);
    // The first has not left (its connection is slow): a second may not go, whatever the time.
    await clock.advance(5000);
    expect(starts).toEqual([0]);
    started[0]?.sent();
    await clock.advance(GAP - 1);
    expect(starts).toEqual([0]);
    await clock.advance(1);
    expect(starts).toEqual([0, 5000 + GAP]);
    // Writing again (undici may rewrite a request) moves the spacing on; after the end, nothing does.
    started[1]?.sent();
    started[1]?.end();
    started[0]?.end();
    await realTick();
    started[1]?.sent();
    await clock.advance(GAP - 1);
    expect(starts).toEqual([0, 5000 + GAP]);
    await clock.advance(1);
    expect(starts).toEqual([0, 5000 + GAP, 5000 + 2 * GAP]);
    started[2]?.sent();
    started[2]?.end();
    await all;
  });

  it('counts a request that never left from the moment it was let go', async () => {
    const clock = new ManualClock();
    const pacer = new HostPacer(clock);
    const t0 = clock.now();
    const starts: number[] = [];
    const first = pacer
      .run('a.example', async () => {
        starts.push(clock.now() - t0);
        await clock.sleep(300);
        throw new Error('no connection');
      })
      .catch((error: unknown) => error);
    const second = pacer.run('a.example', async (sent) => {
      starts.push(clock.now() - t0);
      sent();
    });
    await realTick();
    expect(starts).toEqual([0]);
    await clock.advance(300);
    expect(await first).toEqual(new Error('no connection'));
    expect(starts).toEqual([0]);
    await clock.advance(GAP - 300);
    expect(starts).toEqual([0, GAP]);
    await second;
  });
});
