import { describe, expect, it } from 'vitest';
import {
  LatencyProbe,
  latenciesDuring,
  summarizeLatencies,
} from './latency-probe.js';

describe('summarizeLatencies', () => {
  it('gives nearest-rank p50 and p99 and the maximum', () => {
    const ms = Array.from({ length: 200 }, (_, i) => i + 1);
    expect(summarizeLatencies(ms)).toEqual({
      samples: 200,
      p50: 100,
      p99: 198,
      max: 200,
    });
  });

  it('does not depend on the order of the samples', () => {
    expect(summarizeLatencies([100, 1, 3, 2])).toEqual({
      samples: 4,
      p50: 2,
      p99: 100,
      max: 100,
    });
  });

  it('lets one slow sample in a hundred set the p99', () => {
    const ms = [...Array.from({ length: 99 }, () => 2), 900];
    expect(summarizeLatencies(ms).p99).toBe(2);
    expect(summarizeLatencies([...ms, 900]).p99).toBe(900);
  });

  it('is all zeros without samples', () => {
    expect(summarizeLatencies([])).toEqual({
      samples: 0,
      p50: 0,
      p99: 0,
      max: 0,
    });
  });
});

describe('LatencyProbe', () => {
  /** A probe on a fake clock whose requests are answered when the test says. */
  function fakeProbe() {
    let clock = 0;
    const waiting: { answer: () => void; fail: () => void }[] = [];
    const probe = new LatencyProbe({
      url: 'http://x/healthz',
      intervalMs: 10,
      now: () => clock,
      send: () =>
        new Promise<void>((answer, reject) =>
          waiting.push({ answer, fail: () => reject(new Error('reset')) }),
        ),
    });
    return {
      probe,
      waiting,
      advance: (ms: number) => (clock += ms),
    };
  }
  const settle = () => new Promise((r) => setImmediate(r));

  it('keeps sending while earlier probes wait (open loop), each timed from its own send', async () => {
    const { probe, waiting, advance } = fakeProbe();
    // A server stuck for 30 ms: three probes sent 10 ms apart, all answered at once at the end.
    probe.tick();
    advance(10);
    probe.tick();
    advance(10);
    probe.tick();
    advance(10);
    for (const w of waiting) w.answer();
    await settle();
    expect(probe.stop().samples).toEqual([
      { sent: 0, ms: 30 },
      { sent: 10, ms: 20 },
      { sent: 20, ms: 10 },
    ]);
  });

  it('counts a probe still waiting at the stop with its wait so far, and failures apart', async () => {
    const { probe, waiting, advance } = fakeProbe();
    probe.tick();
    probe.tick();
    probe.tick();
    advance(5);
    waiting[0]?.answer();
    waiting[1]?.fail();
    await settle();
    advance(995);
    expect(probe.stop()).toEqual({
      samples: [
        { sent: 0, ms: 5 },
        { sent: 0, ms: 1000 },
      ],
      failures: 1,
    });
    // An answer after the stop is not counted again.
    waiting[2]?.answer();
    await settle();
    expect(probe.stop()).toEqual({ samples: [], failures: 0 });
  });
});

describe('latenciesDuring', () => {
  it('keeps the samples sent while one of the windows was open', () => {
    const samples = [0, 5, 10, 15, 20, 25].map((sent) => ({
      sent,
      ms: sent + 1,
    }));
    expect(
      latenciesDuring(samples, [
        [5, 10],
        [20, 22],
      ]),
    ).toEqual([6, 11, 21]);
    expect(latenciesDuring(samples, [])).toEqual([]);
  });
});
