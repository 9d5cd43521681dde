/**
 * The phases of one benchmark run and the tools they share: start our server, the baseline and the
 * ceiling as child processes, load the dataset through the REST API, capture and compare answers, measure.
 * `main()` is the distinct-request table, `scale()` the `--scale` table; the soak and the features
 * comparison live in soak.ts and features.ts and use the same tools. Owns the child processes and
 * temporary folders it creates; {@link BenchRun.cleanUp} removes them.
 */
import { rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchOptions } from './bench-options.js';
import { captureFirst, sameAnswer, sendOnce } from './capture.js';
import { writeCeilingFile } from './ceiling-file.js';
import type { CapturedResponse } from './ceiling-file.js';
import { ChildServer, killAllChildren } from './child-server.js';
import { measure } from './load.js';
import type { LoadResult, LoadSettings, RoundResult } from './load.js';
import type { ScaleRow, ScenarioResult } from './report.js';
import { PUT_NAMES, repeated } from './request-sequences.js';
import type { BenchRequest, RequestSequence } from './request-sequences.js';
import { buildScenarios } from './scenarios.js';
import type { Scenario } from './scenarios.js';
import { uploadDataset } from './upload.js';
import type { UploadSummary } from './upload.js';

/** The repository root (two levels above this file). */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The server the benchmark starts unless `--server` says otherwise. */
export const DEFAULT_SERVER_MAIN = join(REPO_ROOT, 'server', 'dist', 'main.js');
const BENCH_DIR = join(REPO_ROOT, 'server', 'bench');

/** Formats KiB as MiB, or `n/a`. */
export const mib = (kib: number | null) =>
  kib === null ? 'n/a' : `${(kib / 1024).toFixed(0)} MiB`;

/** What a load phase reports: the upload plus the server's RSS right after it. */
export type LoadSummary = UploadSummary & { rssKiB: number | null };

/** Results of the main phase. */
export interface MainResults {
  loaded: { ours: LoadSummary; baseline: LoadSummary | null };
  rssAfterRunKiB: { ours: number | null; baseline: number | null };
  results: ScenarioResult[];
}

/** Results of the scale phase. */
export interface ScaleResults {
  rows: ScaleRow[];
  /** Per scale point: our upload, our RSS after it and after that point's scenarios ran. */
  loads: (LoadSummary & { rssAfterRunKiB: number | null })[];
}

/** A server being measured and what the progress lines call it. */
export interface Target {
  label: string;
  child: ChildServer;
}

/** The environment every start of our server gets (on top of the phase's own). */
export const OUR_ENV = {
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
  // The dataset is all there is: no demo config beside it (the baseline has none either).
  SEED: 'none',
  // The benchmark sends far more than any honest client; a rate limit would measure 429s.
  RATE_LIMIT: 'off',
} as const;

/** The requests of a sequence that are sent once before measuring: its first `count`. */
export const firstRequests = (
  sequence: RequestSequence,
  count: number,
): BenchRequest[] =>
  Array.from({ length: Math.min(count, sequence.size) }, (_, i) =>
    sequence.at(i),
  );

/** One run of the benchmark with fixed options. */
export class BenchRun {
  readonly options: BenchOptions;
  readonly settings: LoadSettings;
  readonly progress: (message: string) => void;
  readonly #tempDirs: string[] = [];

  constructor(options: BenchOptions, progress: (message: string) => void) {
    this.options = options;
    this.progress = progress;
    this.settings = {
      connections: options.connections,
      duration: options.duration,
      rounds: options.rounds,
      warmup: options.warmup,
    };
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

  /**
   * Starts our server (or the entry `main`, e.g. an earlier build) on a fresh SQLite file, with
   * {@link OUR_ENV} and `env` on top.
   */
  async startOurs(
    env: Record<string, string> = {},
    label = 'ours',
    main?: string,
  ): Promise<ChildServer> {
    const dir = await this.#tempDir();
    const { profile, server } = this.options;
    const profileArgs =
      profile === null ? [] : ['--cpu-prof', '--cpu-prof-dir', profile];
    return ChildServer.start({
      label,
      args: [...profileArgs, main ?? server ?? DEFAULT_SERVER_MAIN],
      cwd: REPO_ROOT,
      logFile: join(dir, 'server.log'),
      env: {
        DATABASE_URL: `sqlite:${join(dir, 'bench.db')}`,
        ...OUR_ENV,
        ...env,
      },
    });
  }

  /** Starts the baseline server (baseline-app.ts) on a fresh SQLite file. */
  async startBaseline(): Promise<ChildServer> {
    const dir = await this.#tempDir();
    return ChildServer.start({
      label: 'baseline',
      args: ['--import', 'tsx', join(BENCH_DIR, 'baseline-server.ts')],
      cwd: REPO_ROOT,
      logFile: join(dir, 'baseline.log'),
      env: {
        DATABASE_URL: `sqlite:${join(dir, 'baseline.db')}`,
        NODE_ENV: 'production',
      },
    });
  }

  /** Starts the ceiling, replaying `captures` from memory. */
  async startCeiling(
    captures: readonly CapturedResponse[],
  ): Promise<ChildServer> {
    const file = join(await this.#tempDir(), 'ceiling.json');
    await writeCeilingFile(file, captures);
    return ChildServer.start({
      label: 'ceiling',
      args: ['--import', 'tsx', join(BENCH_DIR, 'ceiling.ts')],
      cwd: REPO_ROOT,
      env: { CEILING_FILE: file, NODE_ENV: 'production' },
    });
  }

  /** Loads `configs` dataset configs into `target` through `PUT /configs/:name`. */
  async load(target: Target, configs: number): Promise<LoadSummary> {
    const { links, seed } = this.options;
    this.progress(
      `loading ${configs} × ${links} links into ${target.label} through PUT /configs/:name`,
    );
    const summary = await uploadDataset(target.child.baseUrl, {
      configs,
      links,
      seed,
      onProgress: (done) => {
        if (done % 50 === 0 || done === configs) {
          this.progress(`  ${target.label}: loaded ${done}/${configs}`);
        }
      },
    });
    const rss = await target.child.rssKiB();
    const size = (summary.bytes / 1_048_576).toFixed(1);
    const seconds = (summary.ms / 1000).toFixed(1);
    this.progress(
      `  ${configs} configs, ${size} MiB in ${seconds} s; ${target.label} RSS ${mib(rss)}`,
    );
    return { ...summary, rssKiB: rss };
  }

  /**
   * Measures `sequence` on `target`, with progress lines and a warning (or an error) on failures.
   * `warmup: false` skips the warm-up (the ceiling and the hot-cache column: one answer from memory, or one
   * request answered many times, is warm after a few requests). Afterwards it waits until the server has
   * worked off the requests autocannon abandoned at the end, so the next measurement starts on an idle
   * server.
   */
  async measure(
    target: Target,
    sequence: RequestSequence,
    options: {
      title: string;
      headers?: Record<string, string>;
      warmup?: boolean;
    },
  ): Promise<LoadResult> {
    const settings =
      options.warmup === false
        ? { ...this.settings, warmup: 0 }
        : this.settings;
    const result = await measure(target.child.baseUrl, sequence, {
      settings,
      headers: options.headers ?? {},
      onRound: (round: number, previous: RoundResult | null) => {
        const which =
          round === 0 ? 'warm-up' : `round ${round}/${settings.rounds}`;
        const last = previous
          ? ` (last: ${Math.round(previous.rps)} req/s)`
          : '';
        this.progress(`  ${options.title} · ${target.label} · ${which}${last}`);
      },
    });
    await settle(target);
    if (result.requestsSent > result.distinct && result.distinct > 1) {
      const passes = (result.requestsSent / result.distinct).toFixed(1);
      this.progress(
        `  note: ${target.label} went ${passes} times through the ${result.distinct} distinct requests`,
      );
    }
    if (result.failures > 0) {
      this.progress(
        `  WARNING: ${options.title} on ${target.label}: ${result.failures} failed requests ` +
          `(status codes ${JSON.stringify(result.statusCodes)}; process ${target.child.exitStatus})`,
      );
      const tail = target.child.output.trim().split('\n').slice(-15).join('\n');
      if (tail !== '')
        this.progress(`  last output of ${target.label}:\n${tail}`);
      if (target.child.exited) {
        throw new Error(
          `${target.label} ended (${target.child.exitStatus}) during ${options.title}`,
        );
      }
    }
    return result;
  }

  /** The scenarios `--only` selects. */
  select(all: Scenario[]): Scenario[] {
    const only = this.options.only;
    return only.length === 0 ? all : all.filter((s) => only.includes(s.id));
  }

  /** Deletes the configs the PUT scenario wrote (so captures leave the dataset as it was). */
  async #deletePutNames(targets: readonly Target[]): Promise<void> {
    for (const target of targets) {
      for (const name of PUT_NAMES) {
        await sendOnce(
          target.child.baseUrl,
          { method: 'DELETE', path: `/configs/${name}` },
          'delete',
        );
      }
    }
  }

  /**
   * Sends the first requests of each scenario to our server and the baseline, checks that every answer
   * is a 2xx and compares the two. Returns our captures (for the ceiling) and the agreement per scenario.
   */
  async #capture(
    scenarios: readonly Scenario[],
    servers: { ours: Target; baseline: Target | null },
  ): Promise<{
    captures: CapturedResponse[][];
    agreement: (ScenarioResult['agreement'] & object)[] | null;
  }> {
    this.progress(
      `capturing the first ${this.options.captures} answers of each scenario`,
    );
    const captures: CapturedResponse[][] = [];
    const agreement: { compared: number; same: number }[] = [];
    for (const scenario of scenarios) {
      const requests = firstRequests(scenario.sequence, this.options.captures);
      const capture = (t: Target) =>
        captureFirst(t.child.baseUrl, {
          id: scenario.id,
          title: `${scenario.title} on ${t.label}`,
          requests,
        });
      const ours = await capture(servers.ours);
      captures.push(ours);
      if (servers.baseline !== null) {
        const theirs = await capture(servers.baseline);
        const same = ours.filter((c, i) => {
          const other = theirs[i];
          return other !== undefined && sameAnswer(c, other);
        }).length;
        agreement.push({ compared: ours.length, same });
        const note =
          same === ours.length
            ? 'same answers'
            : `DIFFERENT answers on ${ours.length - same}`;
        this.progress(
          `  ${scenario.id}: ${ours.length} answers; ours and baseline: ${note}`,
        );
      } else {
        this.progress(`  ${scenario.id}: ${ours.length} answers`);
      }
      if (!scenario.read) {
        const targets = [servers.ours, servers.baseline].filter(
          (t): t is Target => t !== null,
        );
        await this.#deletePutNames(targets);
      }
    }
    return {
      captures,
      agreement: servers.baseline === null ? null : agreement,
    };
  }

  /**
   * The main phase: every scenario on the configured dataset; ours, the baseline and the ceiling on the
   * distinct requests, then ours on one request repeated (hot cache).
   */
  async main(): Promise<MainResults> {
    const { configs, links } = this.options;
    this.progress(`phase main: ${configs} configs × ${links} links`);
    const ours: Target = { label: 'ours', child: await this.startOurs() };
    const baseline: Target | null = this.options.baseline
      ? { label: 'baseline', child: await this.startBaseline() }
      : null;
    const loaded = {
      ours: await this.load(ours, configs),
      baseline: baseline === null ? null : await this.load(baseline, configs),
    };
    const scenarios = this.select(buildScenarios({ configs, links }));
    const { captures, agreement } = await this.#capture(scenarios, {
      ours,
      baseline,
    });
    const ceiling: Target | null = this.options.ceiling
      ? { label: 'ceiling', child: await this.startCeiling(captures.flat()) }
      : null;
    const results: ScenarioResult[] = [];
    for (const [i, scenario] of scenarios.entries()) {
      const title = scenario.title;
      this.progress(
        `phase main · scenario ${i + 1}/${scenarios.length}: ${title}`,
      );
      const answers = captures[i] ?? [];
      const oursResult = await this.measure(ours, scenario.sequence, { title });
      const baselineResult =
        baseline === null
          ? null
          : await this.measure(baseline, scenario.sequence, { title });
      const ceilingResult =
        ceiling === null
          ? null
          : await this.measure(
              ceiling,
              ceilingSequence(scenario, answers.length),
              { title, warmup: false },
            );
      const hot =
        this.options.hot && scenario.read && scenario.sequence.size > 1
          ? await this.measure(ours, repeated(scenario.sequence.at(0)), {
              title: `${title} (hot cache)`,
              warmup: false,
            })
          : null;
      const bytes = answers.reduce(
        (sum, c) => sum + Buffer.from(c.body, 'base64').length,
        0,
      );
      results.push({
        id: scenario.id,
        title,
        target: scenario.target,
        ours: oursResult,
        baseline: baselineResult,
        ceiling: ceilingResult,
        // One request repeated is what the distinct run is for `GET /configs`.
        hot: scenario.sequence.size > 1 ? hot : oursResult,
        responseBytes: answers.length === 0 ? 0 : bytes / answers.length,
        agreement: agreement?.[i] ?? null,
      });
    }
    const rssAfterRunKiB = {
      ours: await ours.child.rssKiB(),
      baseline: (await baseline?.child.rssKiB()) ?? null,
    };
    await ours.child.stop();
    await baseline?.child.stop();
    await ceiling?.child.stop();
    return { loaded, rssAfterRunKiB, results };
  }

  /**
   * The scale phase: the scale scenarios at each point, on fresh servers (ours and the baseline). The
   * requests name only the configs of the smallest point, so every point gets the same requests and only
   * the amount of data around them grows.
   */
  async scale(): Promise<ScaleResults> {
    const points = this.options.scalePoints;
    const { links } = this.options;
    const scenarios = this.select(
      buildScenarios({ configs: Math.min(...points), links }),
    ).filter((s) => s.scale);
    const servers = this.options.baseline ? ['ours', 'baseline'] : ['ours'];
    const rows: ScaleRow[] = scenarios.flatMap((s) =>
      servers.map((server) => ({
        id: s.id,
        title: s.title,
        server,
        points: [],
      })),
    );
    const loads: ScaleResults['loads'] = [];
    for (const configs of points) {
      this.progress(`phase scale: ${configs} configs × ${links} links`);
      for (const server of servers) {
        const target: Target = {
          label: `${server}@${configs}`,
          child:
            server === 'ours'
              ? await this.startOurs()
              : await this.startBaseline(),
        };
        const loaded = await this.load(target, configs);
        for (const scenario of scenarios) {
          await captureFirst(target.child.baseUrl, {
            id: scenario.id,
            title: `${scenario.title} on ${target.label}`,
            requests: firstRequests(scenario.sequence, 2),
          });
          if (!scenario.read) await this.#deletePutNames([target]);
        }
        for (const [i, scenario] of scenarios.entries()) {
          this.progress(
            `phase scale ${configs} · scenario ${i + 1}/${scenarios.length}: ${scenario.title}`,
          );
          const r = await this.measure(target, scenario.sequence, {
            title: scenario.title,
          });
          rows
            .find((row) => row.id === scenario.id && row.server === server)
            ?.points.push({ configs, rps: r.rps, p99: r.p99 });
        }
        const rssAfterRunKiB = await target.child.rssKiB();
        this.progress(
          `  ${target.label} RSS after the scenarios: ${mib(rssAfterRunKiB)}`,
        );
        if (server === 'ours') loads.push({ ...loaded, rssAfterRunKiB });
        await target.child.stop();
      }
    }
    return { rows, loads };
  }
}

/**
 * Waits until `target` answers `GET /healthz`. The server handles requests in arrival order, so its answer
 * means the work queued before it (requests abandoned at the end of a round) is done. Gives up after a
 * minute, or at once when the process has ended.
 */
export async function settle(target: Target): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!target.child.exited && Date.now() < deadline) {
    try {
      const res = await fetch(`${target.child.baseUrl}/healthz`, {
        signal: AbortSignal.timeout(10_000),
      });
      await res.arrayBuffer();
      return;
    } catch {
      // still busy: ask again
    }
  }
}

/**
 * What the ceiling is asked for a scenario: the scenario's requests (same methods and bodies), each sent
 * to the route of one of the `answers` captured answers in turn, so the ceiling replays answers of the
 * real sizes.
 */
export function ceilingSequence(
  scenario: Pick<Scenario, 'id' | 'sequence'>,
  answers: number,
): RequestSequence {
  const { id, sequence } = scenario;
  return {
    size: sequence.size,
    at: (i) => ({
      ...sequence.at(i),
      path: `/${id}/${i % Math.max(1, answers)}`,
    }),
  };
}
