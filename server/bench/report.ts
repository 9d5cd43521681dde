/**
 * The printed tables (Markdown, so they paste into notes as they are) and the shapes of the results.
 */
import type { LoadResult } from './load.js';
import type { Scenario } from './scenarios.js';

/** One scenario of the main run. */
export interface ScenarioResult {
  id: string;
  title: string;
  server: LoadResult;
  ceiling: LoadResult | null;
  /** Size of the response body, bytes. */
  responseBytes: number;
  reference: number | null;
  target: number | null;
}

/** One scenario across the scale points. */
export interface ScaleRow {
  id: string;
  title: string;
  /** One entry per scale point, in point order. */
  points: { configs: number; links: number; rps: number; p99: number }[];
}

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));
const ratio = (n: number) => `${n.toFixed(n < 0.1 ? 3 : 2)}×`;

function table(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) =>
    Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)),
  );
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  return [line(head), rule, ...rows.map(line)].join('\n');
}

/** Whether a scenario met its target: `yes`, `NO`, or `—` when the issue gives none. */
export function verdict(result: ScenarioResult): string {
  if (result.target === null) return '—';
  return result.server.rps >= result.target ? 'yes' : 'NO';
}

/** The main table: req/s, p99, ceiling, ratio to the ceiling, reference, target, met. */
export function mainTable(results: readonly ScenarioResult[]): string {
  return table(
    [
      'scenario',
      'req/s',
      'p99 ms',
      'ceiling req/s',
      'vs ceiling',
      'reference',
      'target',
      'met',
      'fails',
    ],
    results.map((r) => [
      r.title,
      int(r.server.rps),
      ms(r.server.p99),
      r.ceiling ? int(r.ceiling.rps) : '—',
      r.ceiling ? ratio(r.server.rps / r.ceiling.rps) : '—',
      r.reference === null ? '—' : int(r.reference),
      r.target === null ? '—' : `≥ ${int(r.target)}`,
      verdict(r),
      String(r.server.failures),
    ]),
  );
}

/**
 * The scale table: per point req/s and cost per request (µs of server time at saturation, 1e6 / req/s),
 * and the cost growth relative to the first point.
 */
export function scaleTable(rows: readonly ScaleRow[]): string {
  const first = rows[0]?.points ?? [];
  const head = ['scenario'];
  for (const p of first)
    head.push(`${p.configs} cfg req/s`, `µs/req`, 'cost ×');
  return table(
    head,
    rows.map((row) => {
      const base = row.points[0]?.rps ?? 0;
      const cells = [row.title];
      for (const p of row.points) {
        cells.push(int(p.rps), (1e6 / p.rps).toFixed(0), ratio(base / p.rps));
      }
      return cells;
    }),
  );
}

/** Copies what a result row needs from its scenario. */
export function describe(
  scenario: Scenario,
): Pick<ScenarioResult, 'id' | 'title' | 'reference' | 'target'> {
  return {
    id: scenario.id,
    title: scenario.title,
    reference: scenario.reference ?? null,
    target: scenario.target ?? null,
  };
}
