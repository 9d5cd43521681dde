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
  const point = (configs: number, rps: number, cpu: number | null) => ({
    configs,
    links: configs === 10_000 ? 50 : 500,
    rps,
    p99: 1,
    cpuMicros: cpu,
  });
  const rows = [
    {
      id: 's',
      title: 'search',
      server: 'ours',
      points: [
        point(10, 1000, 200),
        point(200, 800, 250),
        point(10_000, 500, 1000),
      ],
    },
    {
      id: 's',
      title: 'search',
      server: 'baseline',
      points: [
        point(10, 100, null),
        point(200, 5, null),
        point(10_000, 1, null),
      ],
    },
  ];
  it('prints the cost growth between the points of each target, by CPU time where known, judged for ours only', () => {
    expect(costGrowth(point(10, 1000, 200), point(200, 800, 250))).toBeCloseTo(
      1.25,
    );
    expect(costGrowth(point(10, 100, null), point(200, 5, null))).toBe(20);
    const lines = scaleTable(rows).split('\n');
    expect(lines[0]).toContain(
      '| 10 cfg req/s | µs/req | CPU µs/req | 200 cfg req/s |',
    );
    expect(lines[0]).toContain('| 10000×50 cfg req/s |');
    expect(lines[0]).toContain(
      '| cost × 10→200 | ≤ 1.5× | cost × 200→10000 | ≤ 3× |',
    );
    expect(lines[2]).toMatch(
      /^\| search +\| +ours \| +1,000 \| +1000 \| +200 \| +800 \| +1250 \| +250 \|.*\| +1\.25× \| +yes \| +4\.00× \| +NO \|$/,
    );
    expect(lines[3]).toMatch(/\| +20\.00× \| +— \| +5\.00× \| +— \|$/);
  });
  it('judges only the targets whose two points were measured', () => {
    const two = rows.map((r) => ({ ...r, points: r.points.slice(0, 2) }));
    expect(scaleTable(two).split('\n')[0]).not.toContain('200→10000');
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
