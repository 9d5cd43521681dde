/**
 * Engine benchmark (issue #2): preparation time and `resolve()` throughput on generated configs of 1k,
 * 10k and 100k links, each against baselines measured in the same run (a plain `JSON.parse` of the
 * config for preparation; a naive full scan of the raw links per query for resolution). Beside each
 * query: `analyzeExpression()` alone (it runs on every uncached request), and `resolveWithAnalysis()`,
 * which shares expansion and tokens, against `resolve()` followed by `analyzeExpression()`.
 *
 * Run: `node --import tsx shared/bench/engine.bench.ts [--json out.json] [--budget ms] [--sizes 1000,10000]`
 * after `tsc -b`. Progress goes to stderr, the report to stdout. No assertion is made on any figure.
 *
 * The engine is imported from its build (`dist/`), as the server runs it: run through tsx, the source is
 * compiled with kept function names, which costs every closure created per call a property write and
 * would measure a cost no deployment pays.
 */
import { writeFileSync } from 'node:fs';
import {
  analyzeExpression,
  prepareConfig,
  resolve,
  resolveWithAnalysis,
} from '../dist/index.js';
import type { PreparedConfig } from '../dist/index.js';
import { BENCH_NOW, generateConfig } from './dataset.js';
import { measure, sinkValue } from './measure.js';
import type { Measurement } from './measure.js';

/** The fixed query set: one per feature the issue names. */
const QUERIES: readonly (readonly [name: string, expression: string])[] = [
  ['id', 'l123'],
  ['tag (rare: 3 links)', '.rare'],
  ['tag (common)', '.t3'],
  ['AND/OR/WITHOUT chain', '.t1 + .t2 | .t3 - .t4'],
  ['macro', '@combo'],
  // Clock-independent search atoms are cached per prepared config; `age` forces a scan every time.
  ['search (cached)', '/news/'],
  ['search (age: scans)', '/recent/'],
  ['refiner chain', '.t5 *sort* *skip:5* *limit:10*'],
  [':time:', ':time:7d:'],
  // Problems to report: a doubled operator, an unknown tag and id, parsing stops.
  ['typos (diagnostics)', '.t1 + | .nope - zz l1 | .t2'],
  // Hostile but valid: the longest possible operator chain (1023 tokens) over two common tags.
  [
    '512-term OR chain',
    Array.from({ length: 512 }, (_, i) => `.t${i % 2}`).join(' | '),
  ],
];

interface Args {
  readonly json: string | undefined;
  readonly budgetMs: number;
  readonly sizes: readonly number[];
}

function parseArgs(argv: readonly string[]): Args {
  const value = (flag: string): string | undefined => {
    const at = argv.indexOf(flag);
    return at === -1 ? undefined : argv[at + 1];
  };
  const sizes = value('--sizes');
  return {
    json: value('--json'),
    budgetMs: Number(value('--budget') ?? 300),
    sizes:
      sizes === undefined
        ? [1_000, 10_000, 100_000]
        : sizes.split(',').map(Number),
  };
}

/** The naive baseline: walk every raw link and test its tags, as a server without indexes would. */
function naiveTagScan(config: Record<string, unknown>, tag: string): string[] {
  const links = config['allLinks'] as Record<string, { tags?: string[] }>;
  const out: string[] = [];
  for (const id of Object.keys(links)) {
    if (links[id]?.tags?.includes(tag)) out.push(id);
  }
  return out;
}

interface SizeResult {
  readonly size: number;
  readonly jsonBytes: number;
  readonly jsonParseMs: number;
  readonly prepareMs: number;
  readonly prepareRatio: number;
  readonly baseline: Measurement;
  readonly queries: readonly (Measurement & {
    readonly expression: string;
    readonly results: number;
    readonly ratio: number;
    /** `analyzeExpression` alone. */
    readonly analyze: Measurement;
    /** `resolveWithAnalysis`: both in one call. */
    readonly combined: Measurement;
    /** `resolve` then `analyzeExpression`: two calls. */
    readonly separate: Measurement;
  })[];
}

function timeOnce(op: () => unknown): number {
  const start = performance.now();
  op();
  return performance.now() - start;
}

/** Median of several single runs (preparation is too slow at 100k for a rate loop). */
function medianMs(op: () => unknown, runs: number): number {
  const times = Array.from({ length: runs }, () => timeOnce(op)).sort(
    (a, b) => a - b,
  );
  return times[Math.floor(runs / 2)] ?? 0;
}

function benchSize(size: number, args: Args): SizeResult {
  const progress = (text: string): void => {
    process.stderr.write(`[engine bench] ${size} links: ${text}\n`);
  };
  progress('generating');
  const json = JSON.stringify(generateConfig(size));
  const raw = JSON.parse(json) as Record<string, unknown>;
  const runs = size >= 100_000 ? 5 : 9;
  progress('timing JSON.parse and prepareConfig');
  const jsonParseMs = medianMs(() => JSON.parse(json), runs);
  const prepareMs = medianMs(() => prepareConfig(raw), runs);
  const prepared: PreparedConfig = prepareConfig(raw);
  const options = { budgetMs: args.budgetMs, minIterations: 5 };
  progress('baseline (naive tag scan)');
  const baseline = measure(
    'baseline: naive scan',
    () => naiveTagScan(raw, 't3'),
    options,
  );
  const queries = QUERIES.map(([name, expression]) => {
    progress(name);
    const run = (): unknown =>
      resolve(prepared, expression, { now: BENCH_NOW });
    const m = measure(name, run, options);
    const results = resolve(prepared, expression, { now: BENCH_NOW }).length;
    const analyze = (): unknown =>
      analyzeExpression(prepared, expression, { now: BENCH_NOW });
    return {
      ...m,
      expression,
      results,
      ratio: m.opsPerSecond / baseline.opsPerSecond,
      analyze: measure(`${name}: analyze`, analyze, options),
      combined: measure(
        `${name}: resolveWithAnalysis`,
        () => resolveWithAnalysis(prepared, expression, { now: BENCH_NOW }),
        options,
      ),
      separate: measure(
        `${name}: resolve + analyze`,
        () => [run(), analyze()],
        options,
      ),
    };
  });
  return {
    size,
    jsonBytes: json.length,
    jsonParseMs,
    prepareMs,
    prepareRatio: prepareMs / jsonParseMs,
    baseline,
    queries,
  };
}

const fmt = (n: number, digits = 0): string =>
  n.toLocaleString('en-US', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });

function report(result: SizeResult): string {
  const lines = [
    `\n== ${fmt(result.size)} links (${fmt(result.jsonBytes / 1024 / 1024, 1)} MiB JSON) ==`,
    `prepare: ${fmt(result.prepareMs, 1)} ms  (JSON.parse baseline ${fmt(result.jsonParseMs, 1)} ms; ratio ${fmt(result.prepareRatio, 2)}x)`,
    `baseline naive tag scan: ${fmt(result.baseline.opsPerSecond)} ops/s`,
    `${'query'.padEnd(22)} ${'expression'.padEnd(34)} ${'results'.padStart(7)} ${'ops/s'.padStart(12)} ${'mean'.padStart(10)} ${'vs scan'.padStart(9)} ${'analyze/s'.padStart(11)} ${'both/s'.padStart(10)} ${'separate/s'.padStart(11)}`,
  ];
  for (const q of result.queries) {
    const shown =
      q.expression.length > 34
        ? `${q.expression.slice(0, 31)}...`
        : q.expression;
    lines.push(
      `${q.name.padEnd(22)} ${shown.padEnd(34)} ${String(q.results).padStart(7)} ${fmt(q.opsPerSecond).padStart(12)} ${`${fmt(q.meanMs, 3)} ms`.padStart(10)} ${`${fmt(q.ratio, 2)}x`.padStart(9)} ${fmt(q.analyze.opsPerSecond).padStart(11)} ${fmt(q.combined.opsPerSecond).padStart(10)} ${fmt(q.separate.opsPerSecond).padStart(11)}`,
    );
  }
  return lines.join('\n');
}

function main(): void {
  const args = parseArgs(process.argv.slice(2));
  const results = args.sizes.map((size) => benchSize(size, args));
  process.stdout.write(
    `engine benchmark — node ${process.version}, ${process.platform}/${process.arch}, budget ${args.budgetMs} ms per query\n` +
      `"vs scan" = ops/s divided by the naive full-scan baseline of the same size (higher is better)\n` +
      `"analyze/s" = analyzeExpression alone; "both/s" = resolveWithAnalysis; "separate/s" = resolve then analyzeExpression\n`,
  );
  for (const result of results) process.stdout.write(`${report(result)}\n`);
  process.stderr.write(`[engine bench] done (sink ${sinkValue()})\n`);
  if (args.json !== undefined) {
    writeFileSync(
      args.json,
      `${JSON.stringify({ node: process.version, results }, null, 2)}\n`,
    );
    process.stderr.write(`[engine bench] wrote ${args.json}\n`);
  }
}

main();
