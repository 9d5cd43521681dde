import { describe, expect, it } from 'vitest';
import { medianRound } from './load.js';
import type { LoadResult } from './load.js';
import { mainTable, scaleTable, verdict } from './report.js';
import type { ScenarioResult } from './report.js';

const load = (rps: number, p99 = 5): LoadResult => ({
  rps,
  p50: 1,
  p99,
  failures: 0,
  statusCodes: {},
  rounds: [],
});
const row = (over: Partial<ScenarioResult>): ScenarioResult => ({
  id: 'get',
  title: 'GET /configs/:name',
  server: load(12_000),
  ceiling: load(24_000),
  responseBytes: 10,
  reference: 1013,
  target: 10_000,
  ...over,
});

describe('medianRound', () => {
  it('takes the middle round by req/s', () => {
    expect(medianRound([load(3), load(9), load(5)].map((r) => r)).rps).toBe(5);
    expect(medianRound([load(3)]).rps).toBe(3);
    expect(medianRound([load(4), load(2)]).rps).toBe(2);
  });
  it('refuses an empty list', () => {
    expect(() => medianRound([])).toThrow();
  });
});

describe('verdict', () => {
  it('compares req/s with the target', () => {
    expect(verdict(row({}))).toBe('yes');
    expect(verdict(row({ server: load(9_999) }))).toBe('NO');
    expect(verdict(row({ target: null }))).toBe('—');
  });
});

describe('mainTable', () => {
  it('prints req/s, p99, the ceiling ratio and the verdict as a Markdown row', () => {
    const table = mainTable([row({})]).split('\n');
    expect(table).toHaveLength(3);
    expect(table[2]).toMatch(
      /^\| GET \/configs\/:name \|\s+12,000 \|\s+5\.0 \|\s+24,000 \|\s+0\.50× \|\s+1,013 \|\s+≥ 10,000 \|\s+yes \|\s+0 \|$/,
    );
  });
  it('shows dashes without a ceiling', () => {
    expect(mainTable([row({ ceiling: null })])).toMatch(/\|\s+—\s+\|/);
  });
});

describe('scaleTable', () => {
  it('prints the cost growth relative to the first point', () => {
    const table = scaleTable([
      {
        id: 's',
        title: 'search',
        points: [
          { configs: 10, links: 5000, rps: 1000, p99: 1 },
          { configs: 200, links: 100_000, rps: 250, p99: 9 },
        ],
      },
    ]);
    expect(table.split('\n')[0]).toContain('200 cfg req/s');
    expect(table.split('\n')[2]).toMatch(
      /\| +1,000 \| +1000 \| +1\.00× \| +250 \| +4000 \| +4\.00× \|$/,
    );
  });
});
