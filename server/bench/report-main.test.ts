import { describe, expect, it } from 'vitest';
import type { LoadResult } from './load.js';
import {
  cpuTable,
  labelMatches,
  latencyColumns,
  rateTable,
  verdicts,
} from './report-main.js';
import type { OtherResult, ScenarioResult } from './report-main.js';

const load = (rps: number, cpu: number | null = null): LoadResult => ({
  rps,
  p50: 1,
  p99: 5,
  failures: 0,
  statusCodes: {},
  rounds: [],
  requestsSent: 100,
  distinct: 4000,
  repeats: 0,
  cpuMicrosPerRequest: cpu,
  serverCores: cpu === null ? null : 0.9,
  loadGeneratorCores: 0.6,
});
const ref = (label: string, rps: number, cpu: number | null = null) =>
  ({ label, kind: 'reference', result: load(rps, cpu) }) as OtherResult;
const row = (over: Partial<ScenarioResult>): ScenarioResult => ({
  id: 'query-one',
  title: 'POST /query, one config',
  mix: 'project',
  targets: [
    { of: 'hono', ratio: 10 },
    { of: 'bun', ratio: 2 },
    { of: 'in-repo baseline', ratio: 10 },
  ],
  ours: load(3000, 250),
  others: [ref('hono-ref', 200, 4000), ref('bun-ref', 1600, 1000)],
  ceiling: load(12_000, 60),
  hot: load(20_000),
  responseBytes: 10,
  agreement: {},
  ...over,
});

describe('labelMatches', () => {
  it('matches a name, or the name followed by - or .', () => {
    expect(labelMatches('hono', 'hono')).toBe(true);
    expect(labelMatches('hono-ref', 'hono')).toBe(true);
    expect(labelMatches('honor', 'hono')).toBe(false);
    expect(labelMatches('express-ref', 'hono')).toBe(false);
  });
});

describe('verdicts', () => {
  it('judges each target against the reference it names', () => {
    expect(verdicts(row({}))).toEqual(['≥ 10× hono: yes', '≥ 2× bun: NO']);
  });
  it('skips targets whose server was not measured', () => {
    expect(verdicts(row({ others: [ref('express', 100)] }))).toEqual([]);
  });
  it('uses the in-repo baseline only without references, the ceiling always', () => {
    const baseline: OtherResult = {
      label: 'in-repo baseline',
      kind: 'baseline',
      result: load(250),
    };
    expect(verdicts(row({ others: [baseline] }))).toEqual([
      '≥ 10× in-repo baseline: yes',
    ]);
    expect(
      verdicts(
        row({
          others: [ref('bun', 1600), baseline],
        }),
      ),
    ).toEqual(['≥ 2× bun: NO']);
    const list = row({
      targets: [{ of: 'ceiling', ratio: 1 / 1.2 }],
      others: [ref('bun', 1600)],
      ours: load(9500),
    });
    expect(verdicts(list)).toEqual(['≥ 0.83× ceiling: NO']);
    expect(verdicts({ ...list, ours: load(10_000) })).toEqual([
      '≥ 0.83× ceiling: yes',
    ]);
  });
});

describe('rateTable', () => {
  it('prints ours, every other server, the ceiling, the ratios and the targets', () => {
    const lines = rateTable([row({})]).split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(
      /^\| scenario .*\| distinct \| repeats \| ours req\/s \| hono-ref req\/s \| bun-ref req\/s \| ceiling req\/s \| ours\/hono-ref \| ours\/bun-ref \| ours\/ceiling \|/,
    );
    expect(lines[2]).toMatch(
      /\|\s+4,000 \|\s+0 \|\s+3,000 \|\s+200 \|\s+1,600 \|\s+12,000 \|\s+15\.00× \|\s+1\.88× \|\s+0\.25× \| ≥ 10× hono: yes; ≥ 2× bun: NO \|\s+20,000 \|\s+0\/0\/0 \|$/,
    );
  });
  it('shows dashes for what was not measured', () => {
    const line =
      rateTable([row({ others: [], ceiling: null, hot: null })]).split(
        '\n',
      )[2] ?? '';
    expect(line).toMatch(/\|\s+3,000 \|\s+— \|\s+— \|\s+— \|\s+— \|\s+0 \|$/);
  });
});

describe('latencyColumns', () => {
  it('prints the p99 of every server', () => {
    const line = latencyColumns([row({})]).split('\n')[2] ?? '';
    expect(line).toMatch(/\|\s+5\.0 \|\s+5\.0 \|\s+5\.0 \|\s+5\.0 \|$/);
  });
});

describe('cpuTable', () => {
  it('prints CPU µs per request, each other server against ours, and the cores used', () => {
    const line = cpuTable([row({})]).split('\n')[2] ?? '';
    expect(line).toMatch(
      /\|\s+250 \|\s+4,000 \|\s+1,000 \|\s+60\.0 \|\s+16\.00× \|\s+4\.00× \|\s+0\.90 \|\s+0\.60 \|$/,
    );
  });
  it('shows a dash where a server gave no CPU time (a reference without pid)', () => {
    const line =
      cpuTable([row({ others: [ref('hono', 200, null)] })]).split('\n')[2] ??
      '';
    expect(line).toMatch(/\|\s+250 \|\s+— \|\s+60\.0 \|\s+— \|/);
  });
});
