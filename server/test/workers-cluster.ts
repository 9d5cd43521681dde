/**
 * A `WORKERS` > 1 server started as a child process for tests, and requests that know which worker
 * answered them. Which worker answers is learnt from `/healthz` (its `worker` field is the pid): a
 * keep-alive connection stays with the worker that accepted it, so a request sent on the same socket
 * (checked: `reusedSocket`) after `/healthz` named a worker is answered by that worker.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const tsconfig = fileURLToPath(
  new URL('../../tsconfig.spec.json', import.meta.url),
);

/** One line of the server's JSON log (primary and workers write to the same stdout). */
export interface LogEntry {
  msg?: string;
  url?: string;
  worker?: number;
}

/** A running primary and its workers. */
export interface Cluster {
  readonly primary: ChildProcess;
  /** The one URL every worker listens on. */
  readonly base: string;
  readonly log: LogEntry[];
  /** Resolves with the primary's exit code. */
  readonly exited: Promise<number | null>;
  /**
   * Stops the primary with SIGTERM (it stops its workers); after 25 s, SIGKILL to it and to every worker
   * it logged. Does nothing once the primary has exited.
   */
  stop(): Promise<void>;
}

/** Starts `main.ts` with `WORKERS=workers` on `databaseUrl`; resolves once every worker listens. */
export async function startCluster(options: {
  databaseUrl: string;
  workers?: number;
  env?: Record<string, string>;
}): Promise<Cluster> {
  const workers = options.workers ?? 2;
  const primary = spawn(
    process.execPath,
    ['--import', 'tsx', main, '--port', '0', '--host', '127.0.0.1'],
    {
      env: {
        ...process.env,
        TSX_TSCONFIG_PATH: tsconfig,
        DATABASE_URL: options.databaseUrl,
        WORKERS: String(workers),
        LOG_LEVEL: 'info',
        ACCESS_LOG: 'off',
        SEED: 'none',
        NODE_ENV: 'production',
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const log: LogEntry[] = [];
  const exited = new Promise<number | null>((resolve) =>
    primary.once('exit', resolve),
  );
  const stop = async (): Promise<void> => {
    if (primary.exitCode !== null || primary.signalCode !== null) return;
    primary.kill('SIGTERM');
    let forced = false;
    const timer = setTimeout(() => {
      forced = true;
      primary.kill('SIGKILL');
    }, 25_000);
    await exited;
    clearTimeout(timer);
    if (!forced) return;
    // A primary killed leaves its workers to notice; they are ended here, by the pids it logged.
    for (const entry of log) {
      if (entry.msg !== 'worker started' || entry.worker === undefined)
        continue;
      try {
        process.kill(entry.worker, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  };
  const base = await new Promise<string>((resolve, reject) => {
    const urls: string[] = [];
    primary.once('exit', (code) =>
      reject(new Error(`server exited with ${code}`)),
    );
    createInterface({ input: primary.stdout! }).on('line', (line) => {
      let entry: LogEntry;
      try {
        entry = JSON.parse(line) as LogEntry;
      } catch {
        return;
      }
      log.push(entry);
      if (entry.msg !== 'listening' || entry.url === undefined) return;
      urls.push(entry.url);
      if (urls.length < workers) return;
      if (new Set(urls).size === 1) resolve(entry.url);
      else reject(new Error(`workers listen on ${urls.join(', ')}`));
    });
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return { primary, base, log, exited, stop };
}

/** An answer, and whether it came on a socket used before (so from the same worker). */
export interface Answer {
  readonly status: number;
  readonly text: string;
  readonly reused: boolean;
}

/** What to send. */
export interface Sent {
  readonly path: string;
  readonly body?: string;
  readonly headers?: Record<string, string>;
}

/** Sends one request to `base` on `agent`'s socket. */
function send(
  base: string,
  agent: Agent,
  { method, path, body, headers = {} }: Sent & { method: string },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${base}${path}`,
      {
        method,
        agent,
        headers:
          body === undefined
            ? headers
            : { 'content-type': 'application/json', ...headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            text,
            reused: req.reusedSocket,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** A connection of its own (one keep-alive socket) and the pid of the worker that accepted it. */
export interface Connection {
  readonly agent: Agent;
  readonly pid: number;
  /** Sends on this connection; throws if the socket was replaced (another worker could answer). */
  send(method: string, sent: Sent): Promise<Answer>;
  /** Opens a long request (a stream) on this connection. */
  open(
    path: string,
    headers?: Record<string, string>,
  ): Promise<IncomingMessage>;
  close(): void;
}

/** Opens one new connection and asks `/healthz` on it which worker accepted it. */
export async function connection(base: string): Promise<Connection> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const health = await send(base, agent, { method: 'GET', path: '/healthz' });
  if (health.status !== 200) {
    agent.destroy();
    throw new Error(`/healthz answered ${health.status}`);
  }
  const pid = (JSON.parse(health.text) as { worker: number }).worker;
  const sameWorker = (reused: boolean): void => {
    if (!reused) throw new Error('the connection was replaced');
  };
  return {
    agent,
    pid,
    send: async (method, sent) => {
      const answer = await send(base, agent, { method, ...sent });
      sameWorker(answer.reused);
      return answer;
    },
    open: (path, headers = {}) =>
      new Promise((resolve, reject) => {
        const req = request(`${base}${path}`, { agent, headers }, (res) => {
          try {
            sameWorker(req.reusedSocket);
            resolve(res);
          } catch (error) {
            res.destroy();
            reject(error as Error);
          }
        });
        req.on('error', reject);
        req.end();
      }),
    close: () => agent.destroy(),
  };
}

/** Opens connections until one is accepted by a worker that `wanted` accepts (at most 100 tries). */
export async function connect(
  base: string,
  wanted: (pid: number) => boolean = () => true,
): Promise<Connection> {
  for (let i = 0; i < 100; i++) {
    const conn = await connection(base);
    if (wanted(conn.pid)) return conn;
    conn.close();
  }
  throw new Error('no connection reached the wanted worker');
}

/** One request on a connection of its own: which worker answered, and how. */
export async function probe(
  base: string,
  method: string,
  sent: Sent,
): Promise<Answer & { pid: number }> {
  const conn = await connection(base);
  try {
    return { pid: conn.pid, ...(await conn.send(method, sent)) };
  } finally {
    conn.close();
  }
}

/** One worker, asked each time on a new connection (an idle one could be closed by the server). */
export interface WorkerAt {
  readonly pid: number;
  send(method: string, sent: Sent): Promise<Answer>;
}

/** The worker with `pid`, reached through new connections until one lands on it. */
export function workerAt(base: string, pid: number): WorkerAt {
  return {
    pid,
    send: async (method, sent) => {
      const conn = await connect(base, (p) => p === pid);
      try {
        return await conn.send(method, sent);
      } finally {
        conn.close();
      }
    },
  };
}

/** Two different workers of the cluster at `base`. */
export async function twoWorkers(base: string): Promise<[WorkerAt, WorkerAt]> {
  const first = await connect(base);
  first.close();
  const second = await connect(base, (pid) => pid !== first.pid);
  second.close();
  return [workerAt(base, first.pid), workerAt(base, second.pid)];
}
