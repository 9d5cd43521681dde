/**
 * Starting the servers a benchmark measures, as child processes: our server, the baseline and the
 * ceiling, each in a fresh temporary folder; and waiting until a server has worked off its queue.
 */
import { rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchOptions } from '../bench-options.js';
import { writeCeilingFile } from '../ceiling-file.js';
import type { CapturedResponse } from '../ceiling-file.js';
import { ChildServer } from '../child-server.js';
import type { MeasuredServer } from '../measured-server.js';

/** The repository root (two levels above this file). */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** The server the benchmark starts unless `--server` says otherwise. */
export const DEFAULT_SERVER_MAIN = join(REPO_ROOT, 'server', 'dist', 'main.js');
const BENCH_DIR = join(REPO_ROOT, 'server', 'bench');

/** A server being measured and what the progress lines call it. */
export interface Target {
  label: string;
  child: MeasuredServer;
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

/** The temporary folders of a run; {@link TempDirs.removeAll} removes them. */
export class TempDirs {
  readonly #dirs: string[] = [];

  /** Creates a fresh temporary folder. */
  async create(): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'linkconfig-bench-'));
    this.#dirs.push(dir);
    return dir;
  }

  /** Removes the folders created so far (synchronous, for exit handlers). */
  removeAll(): void {
    for (const dir of this.#dirs.splice(0)) {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

/**
 * Starts our server (or the entry `main`, e.g. an earlier build) on a fresh SQLite file in `dir`, with
 * {@link OUR_ENV} and `env` on top.
 */
export function startOurs(
  options: Pick<BenchOptions, 'profile' | 'server'>,
  dir: string,
  start: { env: Record<string, string>; label: string; main?: string },
): Promise<ChildServer> {
  const { env, label, main } = start;
  const { profile, server } = options;
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

/** Starts the baseline server (baseline-app.ts) on a fresh SQLite file in `dir`. */
export function startBaseline(dir: string): Promise<ChildServer> {
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

/** Starts the ceiling, replaying `captures` from memory (written to a file in `dir`). */
export async function startCeiling(
  dir: string,
  captures: readonly CapturedResponse[],
): Promise<ChildServer> {
  const file = join(dir, 'ceiling.json');
  await writeCeilingFile(file, captures);
  return ChildServer.start({
    label: 'ceiling',
    args: ['--import', 'tsx', join(BENCH_DIR, 'ceiling.ts')],
    cwd: REPO_ROOT,
    env: { CEILING_FILE: file, NODE_ENV: 'production' },
  });
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
