/**
 * The printed tables (Markdown, so they paste into notes as they are) and the shapes of the results they
 * print (the main phase's are in report-main.ts). Pure formatting: no figure is judged here beyond printing whether a target is met.
 */
import type { LatencySummary } from './latency-probe.js';
import type { LoadResult } from './load.js';

/** One scenario across the scale points, for one server. */
export interface ScaleRow {
  id: string;
  title: string;
  server: string;
  /** One entry per scale point, in point order. */
  points: { configs: number; rps: number; p99: number }[];
}

/** One read scenario with the production features on and off. */
export interface FeatureRow {
  id: string;
  title: string;
  defaults: LoadResult;
  /** The defaults with `COMPRESSION=off`. */
  uncompressed: LoadResult;
  off: LoadResult;
}

/** Bytes on the wire for one `GET /configs/:name`, with and without `Accept-Encoding`. */
export interface WireRow {
  name: string;
  identityBytes: number;
  encodedBytes: number;
  /** `Content-Encoding` of the answer to `Accept-Encoding: gzip, br` (`identity` when none). */
  encoding: string;
}

/** One stream of the latency phase on one server. */
export interface LatencyRow {
  server: string;
  phase: string;
  /** Answers of the large requests, by method and status (`PUT 204`, `POST 413`, …). */
  statuses: Record<string, number>;
  /** How long the large requests themselves took, ms. */
  requests: LatencySummary;
  /** The latencies of the probes (`GET /healthz` every 10 ms) sent while such a request was in flight, ms. */
  probe: LatencySummary;
  /** Probes of the whole stream that failed (network errors). */
  probeFailures: number;
}

/** The issue's targets for `--scale` and `--features`. */
export const SCALE_TARGET = 1.5;
/** Largest acceptable cost of metrics, ids and compression on the distinct reads, %. */
export const FEATURES_TARGET_PERCENT = 5;
/** Largest acceptable p99 of the latency probe while large configs are handled (issue 17, item 7), ms. */
export const LATENCY_TARGET_MS = 100;

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));
/** A ratio as `2.50×` (three decimals below 0.1). */
export const ratio = (n: number) =>
  Number.isFinite(n) ? `${n.toFixed(n < 0.1 ? 3 : 2)}×` : '—';
const percent = (n: number) => `${n >= 0 ? '+' : ''}${n.toFixed(1)} %`;

/** A Markdown table with the first column left-aligned and the others right-aligned. */
export function table(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) =>
    Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)),
  );
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  return [line(head), rule, ...rows.map(line)].join('\n');
}

/** Cost growth from the first to the last point: req/s at the first ÷ req/s at the last. */
export function costGrowth(row: ScaleRow): number {
  const first = row.points[0]?.rps ?? 0;
  const last = row.points.at(-1)?.rps ?? 0;
  return last > 0 ? first / last : Number.POSITIVE_INFINITY;
}

/**
 * The scale table: per scenario and server, req/s and µs per request at each point, the cost growth
 * from the first point to the last, and (for our server) whether it stays within the target.
 */
export function scaleTable(rows: readonly ScaleRow[]): string {
  const points = rows[0]?.points ?? [];
  const firstConfigs = points[0]?.configs ?? 0;
  const lastConfigs = points.at(-1)?.configs ?? 0;
  const head = ['scenario', 'server'];
  for (const p of points) head.push(`${p.configs} cfg req/s`, 'µs/req');
  head.push(`cost × ${firstConfigs}→${lastConfigs}`, `≤ ${SCALE_TARGET}×`);
  return table(
    head,
    rows.map((row) => {
      const cells = [row.title, row.server];
      for (const p of row.points) {
        cells.push(int(p.rps), p.rps > 0 ? (1e6 / p.rps).toFixed(0) : '—');
      }
      const growth = costGrowth(row);
      cells.push(
        ratio(growth),
        row.server === 'ours' ? (growth <= SCALE_TARGET ? 'yes' : 'NO') : '—',
      );
      return cells;
    }),
  );
}

/** How much less `on` serves than `off`, in % of `off`. */
function costOf(on: LoadResult, off: LoadResult): number {
  return off.rps > 0 ? (1 - on.rps / off.rps) * 100 : 0;
}

/**
 * The cost of metrics, request ids and the access log in %: how much less the server with them (and
 * without compression) serves than the server with every feature off.
 */
export function featureCost(row: FeatureRow): number {
  return costOf(row.uncompressed, row.off);
}

/** The cost of compression in %: the defaults against the defaults with `COMPRESSION=off`. */
export function compressionCost(row: FeatureRow): number {
  return costOf(row.defaults, row.uncompressed);
}

/**
 * The `--features` table: req/s with the defaults, with compression off, and with metrics, compression
 * and access log off; the cost of metrics + ids + log (target ≤ 5 %) and, apart, of compression.
 */
export function featuresTable(rows: readonly FeatureRow[]): string {
  return table(
    [
      'scenario',
      'defaults req/s',
      'compression off req/s',
      'all off req/s',
      'metrics+ids+log cost',
      `≤ ${FEATURES_TARGET_PERCENT} %`,
      'compression cost',
    ],
    rows.map((r) => {
      const cost = featureCost(r);
      return [
        r.title,
        int(r.defaults.rps),
        int(r.uncompressed.rps),
        int(r.off.rps),
        percent(cost),
        cost <= FEATURES_TARGET_PERCENT ? 'yes' : 'NO',
        percent(compressionCost(r)),
      ];
    }),
  );
}

/** Bytes on the wire for `GET /configs/:name`: totals over every config, and the saving. */
export function wireTable(rows: readonly WireRow[]): string {
  const identity = rows.reduce((s, r) => s + r.identityBytes, 0);
  const encoded = rows.reduce((s, r) => s + r.encodedBytes, 0);
  const encodings = [...new Set(rows.map((r) => r.encoding))].join(', ');
  const saved = identity > 0 ? (1 - encoded / identity) * 100 : 0;
  return table(
    [
      'GET /configs/:name',
      'configs',
      'bytes, no Accept-Encoding',
      'bytes, Accept-Encoding: gzip, br',
      'Content-Encoding',
      'saved',
    ],
    [
      [
        'total',
        String(rows.length),
        int(identity),
        int(encoded),
        encodings === '' ? '—' : encodings,
        `${saved.toFixed(1)} %`,
      ],
    ],
  );
}

/**
 * The `--latency` table: per server and stream, the large requests (answers, their own p50 and max) and
 * the probe's p50, p99 and max, with whether the p99 meets {@link LATENCY_TARGET_MS}.
 */
export function latencyTable(rows: readonly LatencyRow[]): string {
  return table(
    [
      'server · stream',
      'large requests',
      'their p50 / max ms',
      'probes',
      'probe p50 ms',
      'probe p99 ms',
      'probe max ms',
      `p99 ≤ ${LATENCY_TARGET_MS} ms`,
    ],
    rows.map((r) => {
      const answers = Object.entries(r.statuses)
        .map(([key, n]) => `${n} × ${key}`)
        .join(', ');
      return [
        `${r.server} · ${r.phase}`,
        answers === '' ? '—' : answers,
        r.requests.samples === 0
          ? '—'
          : `${ms(r.requests.p50)} / ${ms(r.requests.max)}`,
        r.probeFailures === 0
          ? int(r.probe.samples)
          : `${int(r.probe.samples)} (${r.probeFailures} failed)`,
        ms(r.probe.p50),
        ms(r.probe.p99),
        ms(r.probe.max),
        r.probe.p99 <= LATENCY_TARGET_MS ? 'yes' : 'NO',
      ];
    }),
  );
}
