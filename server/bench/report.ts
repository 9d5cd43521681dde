/**
 * The printed tables (Markdown, so they paste into notes as they are) and the shapes of the results they
 * print (the main phase's are in report-main.ts). Pure formatting: no figure is judged here beyond printing whether a target is met.
 */
import type { LatencySummary } from './latency-probe.js';
import type { LoadResult } from './load.js';

/** One scenario at one scale point. */
export interface ScalePointResult {
  configs: number;
  /** Links per config beyond the configs the requests name (which keep the run's links). */
  links: number;
  rps: number;
  p99: number;
  /** Server CPU time per request, µs (null when unknown). */
  cpuMicros: number | null;
}

/** One scenario across the scale points, for one server. */
export interface ScaleRow {
  id: string;
  title: string;
  server: string;
  /** One entry per scale point, in point order. */
  points: ScalePointResult[];
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

/**
 * The issues' targets for `--scale` (23, 33): the cost of a request grows at most `max`× from `from` to
 * `to` configs (judged when both points were measured).
 */
export const SCALE_TARGETS: readonly {
  from: number;
  to: number;
  max: number;
}[] = [
  { from: 10, to: 200, max: 1.5 },
  { from: 200, to: 10_000, max: 3 },
];
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

/**
 * How many times the cost of a request grew from point `a` to point `b`: by server CPU time per request
 * when both have it (steady on a busy machine), else by req/s.
 */
export function costGrowth(a: ScalePointResult, b: ScalePointResult): number {
  if (a.cpuMicros !== null && b.cpuMicros !== null && a.cpuMicros > 0) {
    return b.cpuMicros / a.cpuMicros;
  }
  return b.rps > 0 ? a.rps / b.rps : Number.POSITIVE_INFINITY;
}

/** A point's name: its configs, and its links per config where they differ from the first point's. */
const pointName = (p: ScalePointResult, first: ScalePointResult | undefined) =>
  p.links === first?.links ? `${p.configs}` : `${p.configs}×${p.links}`;

/**
 * The scale table: per scenario and server, req/s, wall µs per request and CPU µs per request at each
 * point, then for each target whose points were measured the cost growth between them and (for our
 * server) whether it stays within the target.
 */
export function scaleTable(rows: readonly ScaleRow[]): string {
  const points = rows[0]?.points ?? [];
  const first = points[0];
  const judged = SCALE_TARGETS.filter(
    (t) =>
      points.some((p) => p.configs === t.from) &&
      points.some((p) => p.configs === t.to),
  );
  const head = ['scenario', 'server'];
  for (const p of points) {
    head.push(`${pointName(p, first)} cfg req/s`, 'µs/req', 'CPU µs/req');
  }
  for (const t of judged) head.push(`cost × ${t.from}→${t.to}`, `≤ ${t.max}×`);
  return table(
    head,
    rows.map((row) => {
      const cells = [row.title, row.server];
      for (const p of row.points) {
        cells.push(
          int(p.rps),
          p.rps > 0 ? (1e6 / p.rps).toFixed(0) : '—',
          p.cpuMicros === null ? '—' : p.cpuMicros.toFixed(0),
        );
      }
      for (const t of judged) {
        const a = row.points.find((p) => p.configs === t.from);
        const b = row.points.find((p) => p.configs === t.to);
        const growth =
          a === undefined || b === undefined
            ? Number.POSITIVE_INFINITY
            : costGrowth(a, b);
        const verdict = growth <= t.max ? 'yes' : 'NO';
        cells.push(ratio(growth), row.server === 'ours' ? verdict : '—');
      }
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
