import { describe, expect, it } from 'vitest';
import {
  halfPeaksOf,
  inFlightAllowanceKiB,
  peakOf,
  soakReport,
} from './soak.js';
import type { SoakResults, SoakStream } from './soak.js';

const stream = (peakKiB: number, endKiB: number): SoakStream => ({
  asked: 5000,
  completed: 5000,
  rps: 40,
  p50: 1,
  p99: 2,
  failures: 0,
  statusCodes: {},
  peakKiB,
  halfPeaksKiB: [peakKiB - 1024, peakKiB],
  endKiB,
});
const results = (over: Partial<SoakResults> = {}): SoakResults => ({
  cacheBytes: 128 * 1024 * 1024,
  afterStartKiB: 80 * 1024,
  loaded: {
    configs: 50,
    links: 25_000,
    bytes: 6e6,
    ms: 1000,
    rssKiB: 150 * 1024,
  },
  baseKiB: 150 * 1024,
  allowanceKiB: 10 * 1024,
  queries: stream(260 * 1024, 240 * 1024),
  searches: stream(270 * 1024, 250 * 1024),
  idleKiB: 245 * 1024,
  serverEnded: null,
  samples: [],
  ...over,
});

describe('peakOf', () => {
  it('takes the highest sample of one phase', () => {
    const samples = [
      { t: 0, phase: 'load', rssKiB: 900 },
      { t: 1, phase: 'queries', rssKiB: 300 },
      { t: 2, phase: 'queries', rssKiB: 500 },
      { t: 3, phase: 'searches', rssKiB: 400 },
    ];
    expect(peakOf(samples, 'queries')).toBe(500);
    expect(peakOf(samples, 'idle')).toBeNull();
  });
});

describe('halfPeaksOf', () => {
  it('splits a phase at the middle of its time span', () => {
    const samples = [
      { t: 0, phase: 'load', rssKiB: 900 },
      { t: 10, phase: 'queries', rssKiB: 300 },
      { t: 20, phase: 'queries', rssKiB: 350 },
      { t: 30, phase: 'queries', rssKiB: 320 },
      { t: 40, phase: 'queries', rssKiB: 500 },
    ];
    expect(halfPeaksOf(samples, 'queries')).toEqual([350, 500]);
    expect(halfPeaksOf(samples, 'idle')).toEqual([null, null]);
  });
});

describe('inFlightAllowanceKiB', () => {
  it('is the young generation plus the large requests at once, growing with the body size', () => {
    const small = inFlightAllowanceKiB(1_000_000);
    expect(small).toBeGreaterThan(32 * 1024);
    expect(small).toBeLessThan(64 * 1024);
    expect(inFlightAllowanceKiB(2_000_000) - small).toBeCloseTo(
      small - inFlightAllowanceKiB(0),
      -1,
    );
  });
});

describe('soakReport', () => {
  it('compares every moment with the base plus CACHE_BYTES plus the allowance', () => {
    const text = soakReport(results());
    expect(text).toMatch(
      /\| after loading 50 configs \(the base\) +\| +150 MiB \|/,
    );
    expect(text).toMatch(
      /peak during 5,000\/5,000 inline-config \/query .*\| +260 MiB \| +yes \|/,
    );
    expect(text).toContain(
      'bound = base + CACHE_BYTES + allowance = 288 MiB; peak 270 MiB (within)',
    );
  });
  it('says by how much the peak went over, and that the server died', () => {
    const text = soakReport(
      results({
        queries: stream(400 * 1024, 390 * 1024),
        serverEnded: 'signal SIGABRT',
      }),
    );
    expect(text).toMatch(/\| +400 MiB \| +NO \|/);
    expect(text).toContain('OVER by 112 MiB');
    expect(text).toContain('The server ENDED during the soak: signal SIGABRT.');
  });
});
