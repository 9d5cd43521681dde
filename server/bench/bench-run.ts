/**
 * The phases of one benchmark run: start the server (and the ceiling), load the dataset through the REST
 * API, capture, measure; `--scale` repeats the scale scenarios on fresh servers. Owns the child processes
 * and temporary folders it creates; {@link BenchRun.cleanUp} removes them.
 */
import { rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchOptions } from './bench-options.js';
import { captureScenarios } from './capture.js';
import { writeCeilingFile } from './ceiling-file.js';
import type { CapturedResponse } from './ceiling-file.js';
import { ChildServer, killAllChildren } from './child-server.js';
import { putBody } from './dataset.js';
import { measure } from './load.js';
import type { LoadResult, LoadSettings, RoundResult } from './load.js';
import { describe } from './report.js';
import type { ScaleRow, ScenarioResult } from './report.js';
import { bodyHeaders, buildScenarios } from './scenarios.js';
import type { Scenario } from './scenarios.js';
import { uploadDataset } from './upload.js';
import type { UploadSummary } from './upload.js';

/** The repository root (two levels above this file). */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The server the benchmark starts unless `--server` says otherwise. */
export const DEFAULT_SERVER_MAIN = join(REPO_ROOT, 'server', 'dist', 'main.js');
const CEILING_MAIN = join(REPO_ROOT, 'server', 'bench', 'ceiling.ts');

/** Formats KiB as MiB, or `n/a`. */
export const mib = (kib: number | null) =>
  kib === null ? 'n/a' : `${(kib / 1024).toFixed(0)} MiB`;

/** What a load phase reports: the upload plus the server's RSS right after it. */
export type LoadSummary = UploadSummary & { rssKiB: number | null };

/** Results of the main phase. */
export interface MainResults {
  loaded: LoadSummary;
  rssAfterRunKiB: number | null;
  results: ScenarioResult[];
}

/** Results of the scale phase. */
export interface ScaleResults {
  rows: ScaleRow[];
  /** Per scale point: the upload, RSS after it, and RSS after that point's scenarios ran. */
  loads: (LoadSummary & { rssAfterRunKiB: number | null })[];
}

/** One run of the benchmark with fixed options. */
export class BenchRun {
  readonly #options: BenchOptions;
  readonly #settings: LoadSettings;
  readonly #progress: (message: string) => void;
  readonly #tempDirs: string[] = [];

  constructor(options: BenchOptions, progress: (message: string) => void) {
    this.#options = options;
    this.#progress = progress;
    this.#settings = {
      connections: options.connections,
      duration: options.duration,
      rounds: options.rounds,
      warmup: options.warmup,
    };
  }

  /** The load settings in use. */
  get settings(): LoadSettings {
    return this.#settings;
  }

  /** Kills the children still running and removes the temporary folders (synchronous, for exit handlers). */
  cleanUp(): void {
    killAllChildren();
    for (const dir of this.#tempDirs.splice(0)) {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  async #tempDir(): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'linkconfig-bench-'));
    this.#tempDirs.push(dir);
    return dir;
  }

  async #startServer(): Promise<ChildServer> {
    const dir = await this.#tempDir();
    const { profile, server } = this.#options;
    const profileArgs =
      profile === null ? [] : ['--cpu-prof', '--cpu-prof-dir', profile];
    return ChildServer.start({
      label: 'server',
      args: [...profileArgs, server ?? DEFAULT_SERVER_MAIN],
      cwd: REPO_ROOT,
      env: {
        DATABASE_URL: `sqlite:${join(dir, 'bench.db')}`,
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
      },
    });
  }

  async #startCeiling(
    captures: readonly CapturedResponse[],
  ): Promise<ChildServer> {
    const file = join(await this.#tempDir(), 'ceiling.json');
    await writeCeilingFile(file, captures);
    return ChildServer.start({
      label: 'ceiling',
      args: ['--import', 'tsx', CEILING_MAIN],
      cwd: REPO_ROOT,
      env: { CEILING_FILE: file, NODE_ENV: 'production' },
    });
  }

  async #load(server: ChildServer, configs: number): Promise<LoadSummary> {
    const { links, seed } = this.#options;
    this.#progress(
      `loading ${configs} × ${links} links through PUT /configs/:name`,
    );
    const summary = await uploadDataset(server.baseUrl, {
      configs,
      links,
      seed,
      onProgress: (done) => {
        if (done % 25 === 0 || done === configs) {
          this.#progress(`  loaded ${done}/${configs}`);
        }
      },
    });
    const rss = await server.rssKiB();
    const size = (summary.bytes / 1_048_576).toFixed(1);
    const seconds = (summary.ms / 1000).toFixed(1);
    this.#progress(
      `  ${configs} configs, ${size} MiB in ${seconds} s; server RSS ${mib(rss)}`,
    );
    return { ...summary, rssKiB: rss };
  }

  async #measure(
    target: { label: string; child: ChildServer; path: string },
    scenario: Scenario,
  ): Promise<LoadResult> {
    const settings = this.#settings;
    const request = {
      method: scenario.method,
      path: target.path,
      headers: bodyHeaders(scenario),
      body: scenario.body,
    };
    const result = await measure(target.child.baseUrl, request, {
      settings,
      onRound: (round: number, previous: RoundResult | null) => {
        const which =
          round === 0 ? 'warm-up' : `round ${round}/${settings.rounds}`;
        const last = previous
          ? ` (last: ${Math.round(previous.rps)} req/s)`
          : '';
        this.#progress(`  ${scenario.id} · ${target.label} · ${which}${last}`);
      },
    });
    if (result.failures > 0) {
      this.#progress(
        `  WARNING: ${scenario.id} on ${target.label}: ${result.failures} failed requests ` +
          `(status codes ${JSON.stringify(result.statusCodes)}; process ${target.child.exitStatus})`,
      );
      const tail = target.child.output.trim().split('\n').slice(-15).join('\n');
      if (tail !== '')
        this.#progress(`  last output of ${target.label}:\n${tail}`);
      if (target.child.exited) {
        throw new Error(
          `${target.label} ended (${target.child.exitStatus}) during ${scenario.title}`,
        );
      }
    }
    return result;
  }

  #select(all: Scenario[]): Scenario[] {
    const only = this.#options.only;
    return only.length === 0 ? all : all.filter((s) => only.includes(s.id));
  }

  /** The main phase: every scenario on the configured dataset, each followed by its ceiling. */
  async main(): Promise<MainResults> {
    const { configs, links } = this.#options;
    this.#progress(`phase main: ${configs} configs × ${links} links`);
    const server = await this.#startServer();
    const loaded = await this.#load(server, configs);
    const scenarios = this.#select(
      buildScenarios({ configs, putBody: putBody(120 * 1024) }),
    );
    this.#progress('capturing one response per scenario');
    const captures = await captureScenarios(
      server.baseUrl,
      scenarios,
      this.#progress,
    );
    const ceiling = this.#options.ceiling
      ? await this.#startCeiling(captures)
      : null;
    const results: ScenarioResult[] = [];
    for (const [i, scenario] of scenarios.entries()) {
      this.#progress(
        `phase main · scenario ${i + 1}/${scenarios.length}: ${scenario.title}`,
      );
      const { path } = scenario;
      const serverResult = await this.#measure(
        { label: 'server', child: server, path },
        scenario,
      );
      const ceilingResult = ceiling
        ? await this.#measure(
            {
              label: 'ceiling',
              child: ceiling,
              path: `/${scenario.id}`,
            },
            scenario,
          )
        : null;
      results.push({
        ...describe(scenario),
        server: serverResult,
        ceiling: ceilingResult,
        responseBytes: Buffer.from(captures[i]?.body ?? '', 'base64').length,
      });
    }
    const rssAfterRunKiB = await server.rssKiB();
    await server.stop();
    await ceiling?.stop();
    return { loaded, rssAfterRunKiB, results };
  }

  /**
   * The scale phase: the search and query scenarios at each scale point, on a fresh server each. The
   * single-config scenarios use the same config at every point.
   */
  async scale(): Promise<ScaleResults> {
    const points = this.#options.scalePoints;
    const scenarios = this.#select(
      buildScenarios({ configs: Math.min(...points), putBody: '' }).filter(
        (s) => s.scale,
      ),
    );
    const rows: ScaleRow[] = scenarios.map((s) => ({
      id: s.id,
      title: s.title,
      points: [],
    }));
    const loads: ScaleResults['loads'] = [];
    for (const configs of points) {
      const { links } = this.#options;
      this.#progress(
        `phase scale: ${configs} configs × ${links} links (fresh server)`,
      );
      const server = await this.#startServer();
      const loaded = await this.#load(server, configs);
      await captureScenarios(server.baseUrl, scenarios, this.#progress);
      for (const [i, scenario] of scenarios.entries()) {
        this.#progress(
          `phase scale ${configs} · scenario ${i + 1}/${scenarios.length}: ${scenario.title}`,
        );
        const r = await this.#measure(
          {
            label: `server@${configs}`,
            child: server,
            path: scenario.path,
          },
          scenario,
        );
        rows[i]?.points.push({
          configs,
          links: configs * links,
          rps: r.rps,
          p99: r.p99,
        });
      }
      const rssAfterRunKiB = await server.rssKiB();
      this.#progress(
        `  server RSS after the scenarios: ${mib(rssAfterRunKiB)}`,
      );
      loads.push({ ...loaded, rssAfterRunKiB });
      await server.stop();
    }
    return { rows, loads };
  }
}
