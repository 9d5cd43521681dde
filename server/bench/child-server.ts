/**
 * A server in a child process: started with `node <args>` on a free port, ready once `GET /healthz`
 * answers 200, stopped with SIGTERM (then SIGKILL). Every live child is tracked so that Ctrl-C or a crash
 * of the benchmark never leaves one behind.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { treeCpuMicros, treeRssKiB } from './process-stats.js';

const live = new Set<ChildProcess>();

/** Kills every child still running (synchronously, for exit handlers). */
export function killAllChildren(): void {
  for (const child of live) child.kill('SIGKILL');
  live.clear();
}

/**
 * A port nobody listens on right now: any the system picks, or, with `BENCH_PORTS=FROM-TO` in the
 * environment, one of that range (for a shared machine where each user keeps to its own ports).
 */
export async function freePort(): Promise<number> {
  const range = /^(\d+)-(\d+)$/.exec(process.env['BENCH_PORTS'] ?? '');
  if (range === null) return listenOn(0);
  const from = Number(range[1]);
  const size = Number(range[2]) - from + 1;
  // From a random place in the range: two benches started at once rarely try the same port first (a
  // port found free here is bound by the child a moment later).
  const start = Math.floor(Math.random() * size);
  for (let i = 0; i < size; i++) {
    const port = from + ((start + i) % size);
    if (taken.has(port)) continue;
    try {
      taken.add(await listenOn(port));
      return port;
    } catch {
      // in use: the next one
    }
  }
  throw new Error(`no free port in BENCH_PORTS=${range[0]}`);
}

/** Ports of the range handed out by this process already (their servers may not listen yet). */
const taken = new Set<number>();

/** Listens on `port` (0: any) for a moment and gives the port back. */
function listenOn(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** How to start a child server. */
export interface ChildServerOptions {
  /** What the progress lines and errors call it. */
  label: string;
  /** Arguments after `node`. */
  args: string[];
  /** Extra environment (PORT and HOST are added). */
  env: Record<string, string>;
  /** Working directory. */
  cwd: string;
  /**
   * A file for the child's standard output (its log). Without it the output comes through a pipe, which
   * the benchmark, busy sending requests, drains slowly: a server that logs every request then waits on
   * the full pipe and the figures measure the pipe, not the server.
   */
  logFile?: string;
  /** Give up waiting for `/healthz` after this many milliseconds. */
  startTimeoutMs?: number;
}

/** A started child server. */
export class ChildServer {
  readonly #child: ChildProcess;
  readonly #label: string;
  readonly #logFile: string | undefined;
  #output = '';
  readonly #exited: Promise<number | null>;

  private constructor(
    child: ChildProcess,
    label: string,
    logFile: string | undefined,
  ) {
    this.#child = child;
    this.#label = label;
    this.#logFile = logFile;
    const keep = (chunk: Buffer) => {
      this.#output = (this.#output + chunk.toString()).slice(-8000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    this.#exited = new Promise((resolve) => {
      child.on('exit', (code) => {
        live.delete(child);
        resolve(code);
      });
    });
  }

  /** The base URL, e.g. `http://127.0.0.1:40123`. */
  baseUrl = '';

  /** Starts the child on a free port and waits until `/healthz` answers 200. */
  static async start(options: ChildServerOptions): Promise<ChildServer> {
    const port = await freePort();
    const log =
      options.logFile === undefined ? 'pipe' : openSync(options.logFile, 'a');
    const child = spawn(process.execPath, options.args, {
      cwd: options.cwd,
      env: {
        ...process.env,
        ...options.env,
        PORT: String(port),
        HOST: '127.0.0.1',
      },
      stdio: ['ignore', log, 'pipe'],
    });
    if (typeof log === 'number') closeSync(log);
    live.add(child);
    const server = new ChildServer(child, options.label, options.logFile);
    server.baseUrl = `http://127.0.0.1:${port}`;
    await server.#waitHealthy(options.startTimeoutMs ?? 30_000);
    return server;
  }

  /** The process id. */
  get pid(): number {
    return this.#child.pid ?? -1;
  }

  /** Whether the process has ended (crashed or stopped). */
  get exited(): boolean {
    return this.#child.exitCode !== null || this.#child.signalCode !== null;
  }

  /** How it ended: `exit code 1`, `signal SIGKILL`, or `running`. */
  get exitStatus(): string {
    if (this.#child.signalCode !== null)
      return `signal ${this.#child.signalCode}`;
    if (this.#child.exitCode !== null)
      return `exit code ${this.#child.exitCode}`;
    return 'running';
  }

  /** The last output of the child (its log, then stderr), for error messages. */
  get output(): string {
    if (this.#logFile === undefined) return this.#output;
    let log = '';
    try {
      log = readFileSync(this.#logFile, 'utf8').slice(-8000);
    } catch {
      // No log written yet.
    }
    return `${log}${this.#output}`;
  }

  async #waitHealthy(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let exited = false;
    void this.#exited.then(() => (exited = true));
    while (Date.now() < deadline) {
      if (exited) {
        throw new Error(
          `${this.#label} exited during start-up:\n${this.output}`,
        );
      }
      try {
        const res = await fetch(`${this.baseUrl}/healthz`);
        await res.arrayBuffer();
        if (res.status === 200) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(
      `${this.#label} did not answer /healthz within ${timeoutMs} ms:\n${this.output}`,
    );
  }

  /**
   * Resident set size in KiB (`VmRSS` of the process and its children, e.g. cluster workers); null where
   * there is no /proc.
   */
  rssKiB(): Promise<number | null> {
    return treeRssKiB(this.pid);
  }

  /** CPU time of the process and its children so far, µs (process-stats.ts); null where there is no /proc. */
  cpuMicros(): Promise<number | null> {
    return treeCpuMicros(this.pid);
  }

  /** SIGTERM, then SIGKILL after `graceMs`; resolves when the process is gone. */
  async stop(graceMs = 10_000): Promise<void> {
    if (this.#child.exitCode !== null || this.#child.signalCode !== null)
      return;
    this.#child.kill('SIGTERM');
    const timer = setTimeout(() => this.#child.kill('SIGKILL'), graceMs);
    await this.#exited;
    clearTimeout(timer);
  }
}
