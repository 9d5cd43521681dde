/**
 * `WORKERS=2`: two server processes behind one port (node:cluster), on one SQLite file. A write answered
 * by one worker is read, fresh, from the other, whose cache held the old version, and reaches the other's
 * change feed; `/metrics` on either counts the requests of both; a worker killed is restarted; SIGTERM to
 * the primary stops every worker gracefully. Which worker answers is learnt from `/healthz` (its
 * `worker` field is the pid): a keep-alive connection stays with the worker that accepted it, so a
 * request sent on the connection where `/healthz` named a worker is answered by that worker.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const tsconfig = fileURLToPath(
  new URL('../../tsconfig.spec.json', import.meta.url),
);
const dir = mkdtempSync(
  join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'linkconfig-workers-'),
);
let primary: ChildProcess;
let base: string;
const log: { msg?: string; url?: string; worker?: number }[] = [];
let exited: Promise<number | null>;

/** Resolves once `count` workers have logged "listening"; all must be on one URL. */
function started(count: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const urls: string[] = [];
    primary.once('exit', (code) =>
      reject(new Error(`server exited with ${code}`)),
    );
    createInterface({ input: primary.stdout! }).on('line', (line) => {
      const entry = JSON.parse(line) as (typeof log)[number];
      log.push(entry);
      if (entry.msg === 'listening' && entry.url) {
        urls.push(entry.url);
        if (urls.length === count) {
          expect(new Set(urls).size).toBe(1);
          resolve(urls[0] ?? '');
        }
      }
    });
  });
}

beforeAll(async () => {
  primary = spawn(
    process.execPath,
    ['--import', 'tsx', main, '--port', '0', '--host', '127.0.0.1'],
    {
      env: {
        ...process.env,
        TSX_TSCONFIG_PATH: tsconfig,
        DATABASE_URL: `sqlite:${join(dir, 'shared.db')}`,
        WORKERS: '2',
        LOG_LEVEL: 'info',
        ACCESS_LOG: 'off',
        SEED: 'none',
        NODE_ENV: 'production',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  exited = new Promise((resolve) => primary.once('exit', resolve));
  base = await started(2);
}, 120_000);
afterAll(() => {
  primary.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** A connection of its own (one keep-alive socket) and the pid of the worker that accepted it. */
interface Connection {
  agent: Agent;
  pid: number;
}

/** Sends one request on `agent`'s socket; resolves with status, body and the response. */
function send(
  agent: Agent,
  method: string,
  { path, body }: { path: string; body?: string },
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${base}${path}`,
      {
        method,
        agent,
        headers:
          body === undefined ? {} : { 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

let healthChecks = 0;

/** Opens connections until one is accepted by a worker that `wanted` accepts (at most 100 tries). */
async function connect(wanted: (pid: number) => boolean): Promise<Connection> {
  for (let i = 0; i < 100; i++) {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const { status, text } = await send(agent, 'GET', { path: '/healthz' });
    healthChecks++;
    expect(status).toBe(200);
    const pid = (JSON.parse(text) as { worker: number }).worker;
    if (wanted(pid)) return { agent, pid };
    agent.destroy();
  }
  throw new Error('no connection reached the wanted worker');
}

const config = (label: string) =>
  JSON.stringify({ allLinks: { l: { url: 'https://example.com/', label } } });

describe('WORKERS=2 on one SQLite file', () => {
  let a: Connection;
  let b: Connection;

  beforeAll(async () => {
    a = await connect(() => true);
    b = await connect((pid) => pid !== a.pid);
  }, 60_000);

  it('serves from two worker processes on one port', () => {
    expect(a.pid).not.toBe(b.pid);
    expect(a.pid).not.toBe(primary.pid);
  });

  it('reads on one worker what another wrote, though its cache held the old version', async () => {
    expect(
      (
        await send(a.agent, 'PUT', {
          path: '/configs/shared',
          body: config('one'),
        })
      ).status,
    ).toBe(204);
    const first = await send(b.agent, 'GET', { path: '/configs/shared' });
    expect(JSON.parse(first.text)).toMatchObject({
      config: { allLinks: { l: { label: 'one' } } },
    });
    expect(
      (
        await send(a.agent, 'PUT', {
          path: '/configs/shared',
          body: config('two'),
        })
      ).status,
    ).toBe(204);
    const second = await send(b.agent, 'GET', { path: '/configs/shared' });
    expect(JSON.parse(second.text)).toMatchObject({
      config: { allLinks: { l: { label: 'two' } } },
    });
    const search = await send(b.agent, 'GET', { path: '/search?q=two' });
    expect(search.text).toContain('"two"');
  });

  it("sends another worker's writes on its change feed", async () => {
    const events: string[] = [];
    const stream = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = request(`${base}/events`, { agent: b.agent }, resolve);
      req.on('error', reject);
      req.end();
    });
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => events.push(chunk));
    try {
      expect(stream.statusCode).toBe(200);
      // A fresh connection for the write: b's socket carries the stream; a's goes to the other worker.
      expect(
        (
          await send(a.agent, 'PUT', {
            path: '/configs/fed',
            body: config('fed'),
          })
        ).status,
      ).toBe(204);
      await vi.waitFor(() => expect(events.join('')).toContain('"fed"'), {
        timeout: 15_000,
        interval: 100,
      });
    } finally {
      stream.destroy();
    }
  });

  it('renders the metrics of both workers on /metrics', async () => {
    const { text } = await send(a.agent, 'GET', { path: '/metrics' });
    const match =
      /^linkconfig_http_requests_total\{[^}]*route="\/healthz"[^}]*\} (\d+)$/m.exec(
        text,
      );
    // Every /healthz so far, answered by either worker.
    expect(Number(match?.[1])).toBe(healthChecks);
  });

  it('restarts a worker that was killed', async () => {
    process.kill(b.pid, 'SIGKILL');
    b.agent.destroy();
    await vi.waitFor(
      () =>
        expect(
          log.some((e) => e.msg === 'worker ended unexpectedly; restarting it'),
        ).toBe(true),
      { timeout: 10_000 },
    );
    const fresh = await vi.waitFor(
      () => connect((pid) => pid !== a.pid && pid !== b.pid),
      { timeout: 60_000, interval: 500 },
    );
    expect(fresh.pid).toBeGreaterThan(0);
    fresh.agent.destroy();
  }, 90_000);

  it('stops every worker gracefully on SIGTERM to the primary', async () => {
    const workers = [
      a.pid,
      ...new Set(log.filter((e) => e.worker).map((e) => e.worker ?? 0)),
    ];
    a.agent.destroy();
    primary.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(log.some((e) => e.msg === 'all workers stopped')).toBe(true);
    for (const pid of workers) {
      expect(() => process.kill(pid, 0)).toThrow();
    }
  }, 60_000);
});
