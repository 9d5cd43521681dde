/**
 * The HTTP benchmark of issue #6.
 *
 * ```sh
 * npx tsc -b    # the benchmark runs the built server, server/dist/main.js
 * node --import tsx server/bench/http.bench.ts [flags]
 * ```
 *
 * It starts the server in production mode as a child process on a throwaway SQLite database, loads a
 * seeded dataset through the REST API only (`PUT /configs/:name`), asks each scenario once (so the
 * responses can be checked and replayed), then measures every scenario with autocannon: a warm-up, then
 * `rounds` rounds of `duration` seconds, the median round reported. In the same run a ceiling server
 * (ceiling.ts: a plain Hono route answering the captured bytes from memory) is measured the same way, and
 * the table shows req/s, p99, the ratio to the ceiling, the reference and target, and whether the
 * target is met. Progress goes to stderr, tables to stdout.
 *
 * Flags (defaults are the workload):
 * - `--configs N` (50), `--links N` (500): the dataset, about 118 KB of JSON per 500-link config.
 * - `--duration S` (8), `--rounds N` (3), `--warmup S` (min(2, duration)), `--connections N` (16).
 * - `--scale`: afterwards, repeat the search and query scenarios at 10, 50 and 200 configs (a fresh
 *   server each; `--scale-points 10,50,200` to change them), print how req/s and the cost per request
 *   grow relative to the first point, and the server's RSS after loading the largest point.
 * - `--json FILE`: write every figure (all rounds, RSS, settings) as JSON.
 * - `--only id,id`: run only these scenarios (ids: list, get, search-q, search-none, search-tag,
 *   search-regex, query-one, query-three, cherry-pick, put).
 * - `--no-ceiling`: skip the ceiling server.
 * - `--profile DIR`: run the server child with `--cpu-prof --cpu-prof-dir DIR` (summarise the profile with
 *   `node --import tsx server/bench/cpu-profile-summary.ts DIR/<file>.cpuprofile`).
 * - `--seed N`: another dataset.
 * - `--server FILE`: start this entry instead of server/dist/main.js (another build, a reference server);
 *   it gets the same environment and must serve `GET /healthz`.
 *
 * Quick trial: `node --import tsx server/bench/http.bench.ts --duration 2 --rounds 1`.
 * No figure is asserted: this prints measurements, it never fails on them.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { parseBenchOptions } from './bench-options.js';
import type { BenchOptions } from './bench-options.js';
import { BenchRun, DEFAULT_SERVER_MAIN, mib } from './bench-run.js';
import type { MainResults, ScaleResults } from './bench-run.js';
import { mainTable, scaleTable } from './report.js';

const progress = (message: string) =>
  process.stderr.write(`[bench] ${message}\n`);

/** The printed report: settings, RSS, the main table and, with `--scale`, the scale table. */
function render(
  run: {
    options: BenchOptions;
    command: string;
    settings: BenchRun['settings'];
  },
  main: MainResults,
  scale: ScaleResults | null,
): string {
  const { options, settings } = run;
  const perConfig = main.loaded.bytes / options.configs / 1024;
  const lines = [
    `## HTTP benchmark (${new Date().toISOString()}, Node ${process.version})`,
    '',
    `Command: \`${run.command}\``,
    `Dataset: ${options.configs} configs × ${options.links} links (${perConfig.toFixed(0)} KiB JSON per config); ` +
      `${settings.connections} connections, ${settings.warmup} s warm-up, ${settings.rounds} × ${settings.duration} s, median round.`,
    `Server RSS: ${mib(main.loaded.rssKiB)} after loading, ${mib(main.rssAfterRunKiB)} after the run.`,
    '',
    mainTable(main.results),
  ];
  if (scale !== null) {
    const largest = scale.loads.at(-1);
    const [first] = options.scalePoints;
    lines.push(
      '',
      `### Scale (${options.scalePoints.join(', ')} configs × ${options.links} links; cost × = req/s at ${first} ÷ req/s here)`,
      '',
      scaleTable(scale.rows),
      '',
      `Server RSS at ${largest?.configs ?? '?'} × ${options.links}: ${mib(largest?.rssKiB ?? null)} after loading, ` +
        `${mib(largest?.rssAfterRunKiB ?? null)} after the scale scenarios (every config parsed, prepared and indexed).`,
    );
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
  const mainResults = await run.main();
  const scale = options.scale ? await run.scale() : null;
  process.stdout.write(
    render({ options, command, settings: run.settings }, mainResults, scale),
  );
  if (options.json !== null) {
    const report = {
      date: new Date().toISOString(),
      command,
      node: process.version,
      options,
      main: mainResults,
      scale,
    };
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
