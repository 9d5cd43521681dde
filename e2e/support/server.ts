/**
 * Starts the real server (production build) as a child process on its own port and throwaway SQLite
 * database: each worker's shared server (`sharedServer` in fixtures.ts), and the servers of tests that
 * stop and restart it.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The repository root (this file is e2e/support/server.ts). */
export const REPO_ROOT = resolve(import.meta.dirname, '..', '..');

/** The server entry point; E2E_SERVER_ENTRY overrides it (for example to try another build). */
export const SERVER_ENTRY = resolve(
  REPO_ROOT,
  process.env['E2E_SERVER_ENTRY'] ?? 'server/dist/main.js',
);

/** The preload that lets a test move a server's clock forward (movable-clock.mjs). */
const MOVABLE_CLOCK = pathToFileURL(
  resolve(import.meta.dirname, 'movable-clock.mjs'),
).href;

/** The origin the CORS test calls from; the servers started here allow it. */
export const ALLOWED_ORIGIN = 'http://allowed.test';

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => done(port));
    });
  });
}

/** A new empty directory for a throwaway database. */
export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'linkconfig-e2e-'));
}

/** The environment the server runs with in these tests. */
export function serverEnv(options: {
  port: number;
  databaseFile: string;
}): Record<string, string> {
  return {
    PORT: String(options.port),
    HOST: '127.0.0.1',
    DATABASE_URL: `sqlite:${options.databaseFile}`,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    // The test origin, and the same server under another host name (a real cross-origin page).
    CORS_ORIGINS: `${ALLOWED_ORIGIN},http://localhost:${options.port}`,
  };
}

/** Polls `GET /healthz` until it answers 200, or throws after `timeoutMs`. */
export async function waitForHealthy(
  baseURL: string,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`${baseURL}/healthz`);
      if (response.status === 200) return;
      last = `status ${response.status}`;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`The server at ${baseURL} did not become healthy: ${last}`);
}

/** How a {@link ServerProcess} is started. */
interface LaunchOptions {
  readonly env: Record<string, string>;
  readonly clockStepMs: number | undefined;
}

/** A server process owned by one test. */
export class ServerProcess {
  readonly baseURL: string;
  private child: ChildProcess | null = null;
  private output = '';

  private constructor(
    readonly port: number,
    private readonly dir: string,
    private readonly options: LaunchOptions,
  ) {
    this.baseURL = `http://127.0.0.1:${port}`;
  }

  /**
   * Starts a server on a free port with an empty database; `env` adds variables (e.g. API_TOKEN);
   * `clockStepMs` lets {@link moveClock} move its clock forward by that much at a time.
   */
  static async launch(
    env: Record<string, string> = {},
    { clockStepMs }: { clockStepMs?: number } = {},
  ): Promise<ServerProcess> {
    const server = new ServerProcess(await freePort(), tempDir(), {
      env,
      clockStepMs,
    });
    await server.start();
    return server;
  }

  /** Whether the process is running. */
  get running(): boolean {
    return this.child !== null;
  }

  /** What the process wrote to stdout/stderr (for failure messages). */
  get log(): string {
    return this.output;
  }

  /** Starts the process (same port and database as before) and waits until it is healthy. */
  async start(): Promise<void> {
    if (this.child) return;
    const { env, clockStepMs } = this.options;
    const clock =
      clockStepMs === undefined
        ? { args: [], env: {} }
        : {
            args: ['--import', MOVABLE_CLOCK],
            env: { E2E_CLOCK_STEP_MS: String(clockStepMs) },
          };
    const child = spawn(process.execPath, [...clock.args, SERVER_ENTRY], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        ...serverEnv({
          port: this.port,
          databaseFile: join(this.dir, 'e2e.db'),
        }),
        ...clock.env,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    const keep = (chunk: Buffer) => {
      this.output = (this.output + chunk.toString()).slice(-20_000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    child.once('exit', () => {
      if (this.child === child) this.child = null;
    });
    try {
      await waitForHealthy(this.baseURL);
    } catch (error) {
      await this.stop();
      throw new Error(`${String(error)}\nServer output:\n${this.output}`, {
        cause: error,
      });
    }
  }

  /**
   * Moves the server's clock forward by the `clockStepMs` it was launched with (`Date.now()` only: its
   * timers keep real time), and waits until the server has done so.
   */
  async moveClock(): Promise<void> {
    const child = this.child;
    if (!child || this.options.clockStepMs === undefined)
      throw new Error(
        'moveClock: not running, or launched without clockStepMs',
      );
    const moves = () => this.output.split('movable-clock: moved').length;
    const before = moves();
    child.kill('SIGUSR2');
    const deadline = Date.now() + 10_000;
    while (moves() === before) {
      if (Date.now() > deadline)
        throw new Error(`moveClock: no answer from the server\n${this.output}`);
      await new Promise((done) => setTimeout(done, 20));
    }
  }

  /** Stops the process (SIGTERM, then SIGKILL after 5 s) and waits for it to exit. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    if (child.exitCode !== null || child.signalCode !== null) {
      this.child = null;
      return;
    }
    const exited = new Promise<void>((done) =>
      child.once('exit', () => done()),
    );
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
    this.child = null;
  }

  /** Stops the process for good and deletes its database. */
  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
