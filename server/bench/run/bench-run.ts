/**
 * One benchmark run and the tools its phases share: start our server, the baseline and the ceiling as
 * child processes (bench-servers.ts), load the dataset through the REST API, measure. The phases are
 * functions taking the run: the distinct-request table in bench-main.ts, the `--scale` table in
 * bench-scale.ts, the soak and the features comparison in soak.ts and features.ts. Owns the child
 * processes and temporary folders it creates; {@link BenchRun.cleanUp} removes them.
 */
import type { BenchOptions } from '../bench-options.js';
import {
  settle,
  startBaseline,
  startCeiling,
  startOurs,
  TempDirs,
} from './bench-servers.js';
import type { Target } from './bench-servers.js';
import type { CapturedResponse } from '../ceiling-file.js';
import { killAllChildren } from '../child-server.js';
import type { ChildServer } from '../child-server.js';
import { measure } from '../load.js';
import type { LoadResult, LoadSettings, RoundResult } from '../load.js';
import { countRepeats } from '../sequences/request-sequences.js';
import type { RequestSequence } from '../sequences/request-sequences.js';
import type { Scenario } from '../scenarios.js';
import { uploadDataset } from '../upload.js';
import type { UploadSummary } from '../upload.js';

export type { Target } from './bench-servers.js';

/** Formats KiB as MiB, or `n/a`. */
export const mib = (kib: number | null) =>
  kib === null ? 'n/a' : `${(kib / 1024).toFixed(0)} MiB`;

/** What a load phase reports: the upload plus the server's RSS right after it. */
export type LoadSummary = UploadSummary & { rssKiB: number | null };

/** One run of the benchmark with fixed options. */
export class BenchRun {
  readonly options: BenchOptions;
  readonly settings: LoadSettings;
  readonly progress: (message: string) => void;
  readonly #tempDirs = new TempDirs();

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
    this.#tempDirs.removeAll();
  }

  /**
   * Starts our server (or the entry `main`, e.g. an earlier build) on a fresh SQLite file, with
   * `OUR_ENV` (bench-servers.ts) and `env` on top.
   */
  async startOurs(
    env: Record<string, string> = {},
    label = 'ours',
    main?: string,
  ): Promise<ChildServer> {
    return startOurs(this.options, await this.#tempDirs.create(), {
      env,
      label,
      main,
    });
  }

  /** Starts the baseline server (baseline-app.ts) on a fresh SQLite file. */
  async startBaseline(): Promise<ChildServer> {
    return startBaseline(await this.#tempDirs.create());
  }

  /** Starts the ceiling, replaying `captures` from memory. */
  async startCeiling(
    captures: readonly CapturedResponse[],
  ): Promise<ChildServer> {
    return startCeiling(await this.#tempDirs.create(), captures);
  }

  /**
   * Loads `configs` dataset configs into `target` through `PUT /configs/:name`; with `tail`, those from
   * `tail.from` on have `tail.links` links.
   */
  async load(
    target: Target,
    configs: number,
    tail?: { from: number; links: number },
  ): Promise<LoadSummary> {
    const { links, seed } = this.options;
    const shape =
      tail === undefined
        ? `${links} links`
        : `${links} links (${tail.links} from config ${tail.from} on)`;
    this.progress(
      `loading ${configs} × ${shape} into ${target.label} through PUT /configs/:name`,
    );
    const summary = await uploadDataset(target.child.baseUrl, {
      configs,
      links,
      seed,
      ...(tail === undefined ? {} : { tail }),
      onProgress: (done) => {
        if (
          done % Math.max(50, Math.ceil(configs / 20)) === 0 ||
          done === configs
        ) {
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
      /**
       * Whether to count the requests that repeat (default yes; no for the ceiling, which replays a few
       * answers, and the hot-cache column, which repeats one request on purpose).
       */
      countRepeats?: boolean;
    },
  ): Promise<LoadResult> {
    const settings =
      options.warmup === false
        ? { ...this.settings, warmup: 0 }
        : this.settings;
    const measured = await measure(target.child.baseUrl, sequence, {
      settings,
      headers: options.headers ?? {},
      cpuMicros: () => target.child.cpuMicros(),
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
    const result = {
      ...measured,
      repeats:
        options.countRepeats === false
          ? null
          : countRepeats(sequence, measured.requestsSent),
    };
    if (result.repeats !== null && result.repeats > 0) {
      this.progress(
        `  note: ${result.repeats} of the ${result.requestsSent} requests to ${target.label} repeated an earlier one ` +
          `(the sequence holds ${result.distinct} distinct requests)`,
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
}
