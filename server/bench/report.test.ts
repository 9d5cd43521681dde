import { describe, expect, it } from 'vitest';
import { medianRound } from './load.js';
import type { LoadResult } from './load.js';
import {
  costGrowth,
  compressionCost,
  featureCost,
  featuresTable,
  latencyTable,
  ratio,
  scaleTable,
  wireTable,
} from './report.js';

const load = (rps: number, p99 = 5): LoadResult => ({
  rps,
  p50: 1,
  p99,
  failures: 0,
  statusCodes: {},
  rounds: [],
  requestsSent: 100,
  distinct: 4000,
  repeats: 0,
  cpuMicrosPerRequest: null,
  serverCores: null,
  loadGeneratorCores: 0.5,
});
describe('medianRound', () => {
  it('takes the middle round by req/s', () => {
    expect(medianRound([load(3), load(9), load(5)]).rps).toBe(5);
    expect(medianRound([load(3)]).rps).toBe(3);
    expect(medianRound([load(4), load(2)]).rps).toBe(2);
  });
  it('refuses an empty list', () => {
    expect(() => medianRound([])).toThrow();
  });
});

describe('ratio', () => {
  it('prints two decimals, three below 0.1, and a dash for no figure', () => {
    expect(ratio(15)).toBe('15.00×');
    expect(ratio(0.05)).toBe('0.050×');
    expect(ratio(Number.POSITIVE_INFINITY)).toBe('—');
  });
});

describe('scaleTable', () => {
  const rows = [
    {
      id: 's',
      title: 'search',
      server: 'ours',
      points: [
        { configs: 10, rps: 1000, p99: 1 },
        { configs: 200, rps: 800, p99: 9 },
      ],
    },
    {
      id: 's',
      title: 'search',
      server: 'baseline',
      points: [
        { configs: 10, rps: 100, p99: 1 },
        { configs: 200, rps: 5, p99: 9 },
      ],
    },
  ];
  it('prints the cost growth from the first point to the last, judged for ours only', () => {
    expect(costGrowth(rows[0] ?? rows[1]!)).toBeCloseTo(1.25);
    const lines = scaleTable(rows).split('\n');
    expect(lines[0]).toContain('| 10 cfg req/s | µs/req | 200 cfg req/s |');
    expect(lines[0]).toContain('cost × 10→200');
    expect(lines[2]).toMatch(
      /^\| search +\| +ours \| +1,000 \| +1000 \| +800 \| +1250 \| +1\.25× \| +yes \|$/,
    );
    expect(lines[3]).toMatch(/\| +20\.00× \| +— \|$/);
  });
});

describe('featuresTable', () => {
  it('prints the cost of metrics, ids and log against all off, and of compression apart', () => {
    const r = {
      id: 'get',
      title: 'GET',
      defaults: load(450),
      uncompressed: load(900),
      off: load(1000),
    };
    expect(featureCost(r)).toBeCloseTo(10);
    expect(compressionCost(r)).toBeCloseTo(50);
    expect(featuresTable([r]).split('\n')[2]).toMatch(
      /\| +450 \| +900 \| +1,000 \| +\+10\.0 % \| +NO \| +\+50\.0 % \|$/,
    );
    const cheap = { ...r, uncompressed: load(990) };
    expect(featuresTable([cheap])).toMatch(/\+1\.0 % \| +yes \|/);
  });
});

describe('wireTable', () => {
  it('adds up the bytes of every config and the saving', () => {
    const table = wireTable([
      {
        name: 'a',
        identityBytes: 1000,
        encodedBytes: 200,
        encoding: 'br',
      },
      {
        name: 'b',
        identityBytes: 1000,
        encodedBytes: 300,
        encoding: 'br',
      },
    ]);
    expect(table.split('\n')[2]).toMatch(
      /^\| total +\| +2 \| +2,000 \| +500 \| +br \| +75\.0 % \|$/,
    );
  });
});

describe('latencyTable', () => {
  const summary = (p50: number, p99: number, max: number) => ({
    samples: 300,
    p50,
    p99,
    max,
  });
  it('prints the large requests and the probe, and whether its p99 is within 100 ms', () => {
    const lines = latencyTable([
      {
        server: 'ours',
        phase: 'inline POST /query',
        statuses: { 'POST 413': 4 },
        requests: summary(30, 40, 41),
        probe: summary(1.2, 8.5, 12),
        probeFailures: 0,
      },
      {
        server: 'versus',
        phase: 'PUT, then first POST /query',
        statuses: { 'PUT 204': 4, 'POST 200': 4 },
        requests: summary(600, 900, 950),
        probe: summary(3, 910, 1080),
        probeFailures: 2,
      },
    ]).split('\n');
    expect(lines[2]).toMatch(
      /^\| ours · inline POST \/query +\| +4 × POST 413 \| +30\.0 \/ 41\.0 \| +300 \| +1\.2 \| +8\.5 \| +12\.0 \| +yes \|$/,
    );
    expect(lines[3]).toMatch(
      /4 × PUT 204, 4 × POST 200 \| +600 \/ 950 \| +300 \(2 failed\) \| +3\.0 \| +910 \| +1080 \| +NO \|$/,
    );
  });
});
