/**
 * The main phase's tables: per scenario, req/s with ratios and targets, p99, and server CPU time per
 * request, for our server, every other server measured (the references given with `--reference`, or the
 * in-repo baseline as a fallback) and the ceiling.
 */
import type { LoadResult } from './load.js';
import { ratio, table } from './report.js';
import type { Mix, Target } from './scenarios.js';

/** Another server's result on a scenario. */
export interface OtherResult {
  /** Its column name: a reference's name, or `in-repo baseline`. */
  label: string;
  kind: 'reference' | 'baseline';
  result: LoadResult;
}

/** One scenario of the main run. */
export interface ScenarioResult {
  id: string;
  title: string;
  /** The request mix it belongs to (each mix gets its own tables). */
  mix: Mix;
  /** The targets: ours ≥ ratio × the column named (only those measured are judged). */
  targets: readonly Target[];
  /** Our server on the distinct requests. */
  ours: LoadResult;
  /** The references and/or the baseline, in column order. */
  others: OtherResult[];
  ceiling: LoadResult | null;
  /** Our server on one request repeated (what a response cache makes of it). */
  hot: LoadResult | null;
  /** Mean size of our captured response bodies, bytes. */
  responseBytes: number;
  /** Per other server: captured answers compared with ours, and how many were the same. */
  agreement: Record<string, { compared: number; same: number }>;
}

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));
const micros = (n: number | null) =>
  n === null ? '—' : n >= 100 ? int(n) : n.toFixed(1);
const cores = (n: number | null) => (n === null ? '—' : n.toFixed(2));

/** Sequences at least this long never come round again in a run (their requests are built on demand). */
const ENDLESS = 1_000_000_000;
const distinctText = (n: number) => (n >= ENDLESS ? 'every' : int(n));

/** Whether a column label answers to a target's name: `hono` matches `hono`, `hono-ref`, `hono.2`. */
export const labelMatches = (label: string, of: string) =>
  label === of || label.startsWith(`${of}-`) || label.startsWith(`${of}.`);

/** The measured figure a target is relative to, or null when it was not measured. */
function figureFor(result: ScenarioResult, of: string): LoadResult | null {
  if (of === 'ceiling') return result.ceiling;
  return result.others.find((o) => labelMatches(o.label, of))?.result ?? null;
}

/**
 * Each target of a scenario whose figure was measured, judged: `≥ 10× hono: yes`. Targets relative to
 * the in-repo baseline count only when no reference was measured.
 */
export function verdicts(result: ScenarioResult): string[] {
  const anyReference = result.others.some((o) => o.kind === 'reference');
  const out: string[] = [];
  for (const target of result.targets) {
    if (target.of === 'in-repo baseline' && anyReference) continue;
    const other = figureFor(result, target.of);
    if (other === null || other.rps <= 0) continue;
    const met = result.ours.rps / other.rps >= target.ratio;
    const times = Number(target.ratio.toFixed(2));
    out.push(`≥ ${times}× ${target.of}: ${met ? 'yes' : 'NO'}`);
  }
  return out;
}

const vs = (a: LoadResult, b: LoadResult | null) =>
  b === null || b.rps <= 0 ? '—' : ratio(a.rps / b.rps);

const labels = (results: readonly ScenarioResult[]) =>
  results[0]?.others.map((o) => o.label) ?? [];

/** The column of `label` in a row (the rows of a run all have the same columns). */
const column = (r: ScenarioResult, label: string) =>
  r.others.find((o) => o.label === label)?.result ?? null;

/**
 * req/s: distinct requests in the sequence, repeats in our run, ours, every other server, the ceiling,
 * ours ÷ each, the targets, the hot-cache figure and failures.
 */
export function rateTable(results: readonly ScenarioResult[]): string {
  const others = labels(results);
  return table(
    [
      'scenario',
      'distinct',
      'repeats',
      'ours req/s',
      ...others.map((l) => `${l} req/s`),
      'ceiling req/s',
      ...others.map((l) => `ours/${l}`),
      'ours/ceiling',
      'targets',
      'hot cache req/s',
      'fails',
    ],
    results.map((r) => [
      r.title,
      distinctText(r.ours.distinct),
      r.ours.repeats === null ? '—' : int(r.ours.repeats),
      int(r.ours.rps),
      ...others.map((l) => {
        const c = column(r, l);
        return c === null ? '—' : int(c.rps);
      }),
      r.ceiling ? int(r.ceiling.rps) : '—',
      ...others.map((l) => vs(r.ours, column(r, l))),
      vs(r.ours, r.ceiling),
      verdicts(r).join('; ') || '—',
      r.hot ? int(r.hot.rps) : '—',
      [r.ours, ...others.map((l) => column(r, l))]
        .map((c) => (c === null ? '—' : String(c.failures)))
        .join('/'),
    ]),
  );
}

/** p99 latency of the median round, ms, per server. */
export function latencyColumns(results: readonly ScenarioResult[]): string {
  const others = labels(results);
  return table(
    [
      'scenario',
      'ours p99 ms',
      ...others.map((l) => `${l} p99 ms`),
      'ceiling p99 ms',
    ],
    results.map((r) => [
      r.title,
      ms(r.ours.p99),
      ...others.map((l) => {
        const c = column(r, l);
        return c === null ? '—' : ms(c.p99);
      }),
      r.ceiling ? ms(r.ceiling.p99) : '—',
    ]),
  );
}

/**
 * Server CPU time per request (µs, over the measured rounds), per server; each other server's ÷ ours
 * (how many times our CPU time it spends on a request); and, for our run, the cores our server and the
 * load generator kept busy.
 */
export function cpuTable(results: readonly ScenarioResult[]): string {
  const others = labels(results);
  const per = (c: LoadResult | null) => micros(c?.cpuMicrosPerRequest ?? null);
  const times = (c: LoadResult | null, ours: LoadResult) => {
    const a = c?.cpuMicrosPerRequest ?? null;
    const b = ours.cpuMicrosPerRequest;
    return a === null || b === null || b <= 0 ? '—' : ratio(a / b);
  };
  return table(
    [
      'scenario',
      'ours µs/req',
      ...others.map((l) => `${l} µs/req`),
      'ceiling µs/req',
      ...others.map((l) => `${l}/ours CPU`),
      'ours cores',
      'load generator cores',
    ],
    results.map((r) => [
      r.title,
      per(r.ours),
      ...others.map((l) => per(column(r, l))),
      per(r.ceiling),
      ...others.map((l) => times(column(r, l), r.ours)),
      cores(r.ours.serverCores),
      cores(r.ours.loadGeneratorCores),
    ]),
  );
}

/** The three tables, with a line saying what each is. */
export function mainTables(results: readonly ScenarioResult[]): string {
  return [
    'Requests per second (median round):',
    '',
    rateTable(results),
    '',
    'p99 latency of the median round:',
    '',
    latencyColumns(results),
    '',
    'Server CPU time per request (user + system time of the server process and its children over the rounds ÷ answers):',
    '',
    cpuTable(results),
  ].join('\n');
}
