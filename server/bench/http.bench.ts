/**
 * The HTTP benchmark (issues #9 and #13). Full description: docs/benchmarks.md.
 *
 * ```sh
 * npx tsc -b    # the benchmark runs the built server, server/dist/main.js
 * node --import tsx server/bench/http.bench.ts [flags]
 * ```
 *
 * Our server runs in production mode as a child process on a throwaway SQLite database, beside the
 * reference servers given with `--reference` (any server of the contract, started by you on a fresh
 * database; without any, the in-repo baseline, baseline-app.ts, runs as a labelled fallback), all loaded
 * with the same seeded dataset through `PUT /configs/:name`. Every scenario is a long sequence
 * of distinct requests (request-sequences.ts), sent in the same order to each server by autocannon. The
 * first answers of each scenario are checked (2xx), compared between the two servers, and replayed from
 * memory by a ceiling server (ceiling.ts) for the in-run ceiling. Each measurement is a warm-up (not for
 * the ceiling and the hot-cache column) and then `rounds` rounds of `duration` seconds, the median round
 * reported; after it, the benchmark waits until the server has worked off the abandoned requests. The main table prints ours, the
 * baseline, ours/baseline, the ceiling, ours/ceiling, the issue's target and whether it is met, and our
 * figure for one request repeated ("hot cache"). Progress goes to stderr, tables to stdout. No figure is
 * asserted: the benchmark prints measurements and never fails on them.
 *
 * Flags:
 * - `--quick`: a one-minute smoke test (1 round of 1 s, 4 captures; small soak).
 * - `--configs N` (50), `--links N` (500): the dataset, about 118 KB of JSON per 500-link config.
 * - `--duration S` (3), `--rounds N` (3), `--warmup S` (1), `--connections N` (16).
 * - `--only id,id`: only these scenarios (list, get, search-q, search-none, search-tag, search-regex,
 *   query-one, query-three, query-overlap, cherry-pick, put, patch).
 * - `--reference name=url[@pid]` (repeatable): measure this server beside ours; with its pid (or
 *   `--reference-pid name=pid`) its CPU time per request too. `--baseline`: the in-repo baseline as well.
 * - `--no-baseline`, `--no-ceiling`, `--no-hot`: skip those columns; `--no-main`: skip the main table.
 * - `--captures N` (16): answers captured per scenario (compared, replayed by the ceiling).
 * - `--scale` [`--scale-points 10,50,200`]: the scenarios again at each point, ours and the baseline on
 *   fresh servers, with the cost growth from the first point to the last.
 * - `--soak` [`--soak-queries 5000 --soak-searches 20000 --soak-bytes 1000000 --cache-bytes 128mb`]: the
 *   memory soak (soak.ts).
 * - `--features`: metrics, compression and access log on vs off, and bytes on the wire (features.ts).
 * - `--published`: published reads of one 118 KB config, 200 and 304, beside `GET /configs/:name` of
 *   ours and of each reference (published.ts).
 * - `--latency` [`--latency-bytes 9mb --latency-rounds 4 --latency-versus FILE`]: how long `GET /healthz`
 *   waits (probed every 10 ms) while large configs are parsed and prepared: inline `/query`, and a PUT
 *   followed by the first `/query` of the new version (latency.ts); `--latency-versus` measures a second
 *   server entry the same way (e.g. a build of an earlier commit).
 * - `--json FILE`: every figure, as JSON.
 * - `--profile DIR`: our server runs with `--cpu-prof --cpu-prof-dir DIR` (summarise a profile with
 *   `node --import tsx server/bench/cpu-profile-summary.ts DIR/<file>.cpuprofile`).
 * - `--seed N`: another dataset. `--server FILE`: start this entry instead of server/dist/main.js.
 * - `--workers N`: our server with `WORKERS=N` (its CPU time counts the primary and every worker).
 * - `--cold` [`--cold-configs 5000 --cold-links 50 --cold-db FILE`]: restart on a big database and time
 *   the first search and query (cold-start.ts); `--cold-db` keeps the loaded database and reuses it.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { parseBenchOptions } from './bench-options.js';
import type { BenchOptions } from './bench-options.js';
import { BASELINE_LABEL, runMain } from './run/bench-main.js';
import type { MainResults } from './run/bench-main.js';
import { BenchRun, mib } from './run/bench-run.js';
import { runScale } from './run/bench-scale.js';
import type { ScaleResults } from './run/bench-scale.js';
import { DEFAULT_SERVER_MAIN } from './run/bench-servers.js';
import { coldReport, runCold } from './cold-start.js';
import type { ColdResults } from './cold-start.js';
import { runFeatures } from './features.js';
import type { FeatureResults } from './features.js';
import { runLatency } from './latency.js';
import { publishedTable, runPublished } from './published.js';
import type { PublishedRow } from './published.js';
import { describeMemoryBound, MEMORY_BASE_BYTES } from './memory-bound.js';
import { DEFAULT_CACHE_BYTES } from '../src/cache/cache-policy.js';
import { describeMemory } from './memory-breakdown.js';
import { mainTables } from './report-main.js';
import { PUT_BYTES } from './scenarios.js';
import {
  featuresTable,
  latencyTable,
  scaleTable,
  wireTable,
} from './report.js';
import type { LatencyRow } from './report.js';
import { runSoak, soakReport } from './soak.js';
import type { SoakResults } from './soak.js';

const progress = (message: string) =>
  process.stderr.write(`[bench] ${message}\n`);

/** Everything one run measured. */
interface Report {
  date: string;
  command: string;
  node: string;
  options: BenchOptions;
  main: MainResults | null;
  scale: ScaleResults | null;
  soak: SoakResults | null;
  features: FeatureResults | null;
  published: PublishedRow[] | null;
  latency: LatencyRow[] | null;
  cold: ColdResults | null;
}

function renderMain(run: BenchRun, main: MainResults): string[] {
  const { options, settings } = run;
  const perConfig = (main.loaded['ours']?.bytes ?? 0) / options.configs / 1024;
  const servers = Object.keys(main.loaded);
  const rss = (record: Record<string, { rssKiB: number | null } | undefined>) =>
    servers.map((s) => `${s} ${mib(record[s]?.rssKiB ?? null)}`).join(', ');
  const after = servers
    .map((s) => `${s} ${mib(main.rssAfterRunKiB[s] ?? null)}`)
    .join(', ');
  const rssAfter = main.rssAfterRunKiB['ours'] ?? null;
  const lines = [
    `Dataset: ${options.configs} configs × ${options.links} links (${perConfig.toFixed(0)} KiB JSON per config); ` +
      `${settings.connections} connections, ${settings.warmup} s warm-up, ${settings.rounds} × ${settings.duration} s, median round.`,
    `Servers: ours (server/dist/main.js, started by the benchmark${options.workers > 1 ? `, WORKERS=${options.workers}` : ''})${options.references.map((r) => `, ${r.name} (${r.url}${r.pid === null ? ', no pid: no CPU figures' : `, pid ${r.pid}`})`).join('')}` +
      `${options.baseline ? `, ${BASELINE_LABEL} (server/bench/baseline-app.ts: a re-implementation kept as a fallback, not a reference)` : ''}.`,
    `RSS after loading: ${rss(main.loaded)}; after the run: ${after}.`,
    describeMemory(main.memory),
    describeMemoryBound(rssAfter === null ? null : rssAfter * 1024, {
      cacheBytes: main.cacheBytes,
      workers: options.workers,
      connections: settings.connections,
      largestBodyBytes: Math.max(PUT_BYTES, perConfig * 1024),
    }),
  ];
  const mixes = [
    ['project', "the project's mix: every word, tag and regex shape in turn"],
    [
      'common',
      'the common-terms mix: terms drawn by their frequency in the dataset',
    ],
  ] as const;
  for (const [mix, what] of mixes) {
    const rows = main.results.filter((r) => r.mix === mix);
    if (rows.length === 0) continue;
    lines.push('', `### Distinct requests, ${what}`, '', mainTables(rows));
  }
  lines.push(
    '',
    '"distinct": requests in the sequence; "repeats": requests of our run that repeated an earlier one of the run; "hot cache": ours with one request repeated; "fails": failed requests per server, in column order.',
  );
  const differing = main.results.flatMap((r) =>
    Object.entries(r.agreement)
      .filter(([, a]) => a.same < a.compared)
      .map(([label, a]) => `${r.id} vs ${label} (${a.compared - a.same})`),
  );
  if (differing.length > 0) {
    lines.push(
      `WARNING: answers differing from ours: ${differing.join(', ')}.`,
    );
  }
  return lines;
}

function render(run: BenchRun, report: Report): string {
  const lines = [
    `## HTTP benchmark (${report.date}, Node ${report.node})`,
    '',
    `Command: \`${report.command}\``,
  ];
  if (report.main !== null) lines.push(...renderMain(run, report.main));
  if (report.scale !== null) {
    const { links, scalePoints } = run.options;
    const points = scalePoints
      .map((p) => `${p.configs}${p.links === null ? '' : `×${p.links}`}`)
      .join(' → ');
    lines.push(
      '',
      `### Scale (${points} configs, ${links} links unless said; distinct requests; cost × = CPU µs per request at the later point ÷ at the earlier)`,
      '',
      scaleTable(report.scale.rows),
      '',
      `Our RSS after loading and after the scenarios: ${report.scale.loads.map((l) => `${l.configs} configs ${mib(l.rssKiB)} / ${mib(l.rssAfterRunKiB)}`).join('; ')} (CACHE_BYTES ${mib(DEFAULT_CACHE_BYTES / 1024)} + base ${mib(MEMORY_BASE_BYTES / 1024)}).`,
    );
  }
  if (report.features !== null) {
    lines.push(
      '',
      '### Production features (defaults vs COMPRESSION=off vs METRICS=off COMPRESSION=off ACCESS_LOG=off; distinct reads, Accept-Encoding: gzip, br)',
      '',
      featuresTable(report.features.rows),
      '',
      wireTable(report.features.wire),
    );
  }
  if (report.soak !== null) {
    lines.push('', '### Memory soak (ours)', '', soakReport(report.soak));
  }
  if (report.published !== null) {
    lines.push(
      '',
      `### Published reads (one ${run.options.links}-link config, one request repeated, ${run.settings.connections} connections, median of ${run.settings.rounds} × ${run.settings.duration} s)`,
      '',
      publishedTable(report.published),
    );
  }
  if (report.latency !== null) {
    const { latencyBytes, latencyRounds } = run.options;
    lines.push(
      '',
      `### Event-loop latency (GET /healthz every 10 ms while ${latencyRounds} large requests of ${(latencyBytes / 1024 ** 2).toFixed(1)} MiB configs go one at a time)`,
      '',
      latencyTable(report.latency),
      '',
      '"probes": GET /healthz sent every 10 ms, open loop, counting those still waiting at the end with their wait so far.',
    );
  }
  if (report.cold !== null) {
    lines.push('', '### Cold start (`--cold`)', '', coldReport(report.cold));
  }
  return `${lines.join('\n')}\n`;
}

async function main(run: BenchRun, options: BenchOptions): Promise<void> {
  const serverMain = options.server ?? DEFAULT_SERVER_MAIN;
  if (!existsSync(serverMain)) {
    throw new Error(
      `${serverMain} is missing: build first with \`npx tsc -b\` (from the repository root)`,
    );
  }
  const command =
    `node --import tsx server/bench/http.bench.ts ${process.argv.slice(2).join(' ')}`.trim();
  const report: Report = {
    date: new Date().toISOString(),
    command,
    node: process.version,
    options,
    main: options.main ? await runMain(run) : null,
    scale: null,
    soak: null,
    features: null,
    published: null,
    latency: null,
    cold: null,
  };
  if (options.scale) report.scale = await runScale(run);
  if (options.features) report.features = await runFeatures(run);
  if (options.published) report.published = await runPublished(run);
  if (options.soak) report.soak = await runSoak(run);
  if (options.latency) report.latency = await runLatency(run);
  if (options.cold) report.cold = await runCold(run);
  process.stdout.write(render(run, report));
  if (options.json !== null) {
    await writeFile(options.json, `${JSON.stringify(report, null, 2)}\n`);
    progress(`wrote ${options.json}`);
  }
}

let run: BenchRun | undefined;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    progress(`${signal}: stopping the child servers`);
    run?.cleanUp();
    process.exit(130);
  });
}
process.on('exit', () => run?.cleanUp());

try {
  const options = parseBenchOptions(process.argv.slice(2));
  run = new BenchRun(options, progress);
  await main(run, options);
} catch (error) {
  progress(`failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  run?.cleanUp();
}
