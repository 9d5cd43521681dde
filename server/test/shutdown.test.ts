/**
 * Issue 17, items 4 and 9: what SIGTERM does to the requests in flight and to a process whose log reader
 * has gone. Real child processes, as in production.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const tsconfig = fileURLToPath(
  new URL('../../tsconfig.spec.json', import.meta.url),
);
const dir = mkdtempSync(join(tmpdir(), 'linkconfig-shutdown-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** Starts `main.ts` on a fresh SQLite file; resolves once it logs "listening". */
function start(
  name: string,
): Promise<{ child: ChildProcess; url: string; port: number }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', main, '--port', '0', '--host', '127.0.0.1'],
    {
      env: {
        ...process.env,
        TSX_TSCONFIG_PATH: tsconfig,
        DATABASE_URL: `sqlite:${join(dir, `${name}.db`)}`,
        LOG_LEVEL: 'info',
        NODE_ENV: 'production',
        RATE_LIMIT: 'off',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  children.push(child);
  return new Promise((resolve, reject) => {
    child.once('exit', (code) =>
      reject(new Error(`server exited with ${code}`)),
    );
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const entry = JSON.parse(line) as { msg?: string; url?: string };
      if (entry.msg === 'listening' && entry.url) {
        lines.close();
        resolve({
          child,
          url: entry.url,
          port: Number(new URL(entry.url).port),
        });
      }
    });
  });
}

/** Resolves with the exit code and how long after now the child exited. */
const exited = (
  child: ChildProcess,
): Promise<{ code: number | null; ms: number }> => {
  const since = Date.now();
  return new Promise((resolve) =>
    child.once('exit', (code) => resolve({ code, ms: Date.now() - since })),
  );
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Outcome {
  readonly status?: number;
  readonly connection?: string;
  readonly error?: string;
}

/** One PUT on `agent`'s keep-alive connection. */
function put(port: number, agent: Agent, path: string): Promise<Outcome> {
  const body = JSON.stringify({ allLinks: { a: { url: 'https://a' } } });
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'PUT',
        path,
        agent,
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            connection: String(res.headers.connection),
          }),
        );
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ error: error.code ?? error.message }),
    );
    req.end(body);
  });
}

describe('SIGTERM', () => {
  it('answers every request it received, with Connection: close, and resets none (issue 17, item 4)', async () => {
    const server = await start('writers');
    let terminated = false;
    /** What each writer got from the moment of SIGTERM on. */
    const writer = async (n: number): Promise<Outcome[]> => {
      const outcomes: Outcome[] = [];
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      // Each writer writes until the server is gone: after SIGTERM it gets answers, then refusals.
      for (let i = 0; ; i++) {
        const outcome = await put(server.port, agent, `/configs/w${n}-${i}`);
        if (terminated) outcomes.push(outcome);
        if (outcome.error !== undefined) break;
      }
      agent.destroy();
      return outcomes;
    };
    const gone = exited(server.child);
    const writers = Array.from({ length: 16 }, (_, n) => writer(n));
    await sleep(400);
    terminated = true;
    server.child.kill('SIGTERM');
    const outcomes = await Promise.all(writers);
    expect((await gone).code).toBe(0);
    for (const got of outcomes) {
      // A refused connection is the only failure, and it ends the writer.
      expect(got.filter((o) => o.error !== undefined)).toEqual([
        { error: 'ECONNREFUSED' },
      ]);
      const answers = got.filter((o) => o.status !== undefined);
      for (const o of answers) expect([204, 503]).toContain(o.status);
      // The last answer (after SIGTERM) closed its connection.
      expect(answers.at(-1)?.connection).toBe('close');
    }
  }, 30_000);

  it('exits within its bound when the log reader has gone (issue 17, item 9)', async () => {
    const server = await start('no-reader');
    // Like `linkconfig-server | head -2`: the reader of stdout goes away.
    server.child.stdout!.destroy();
    const gone = exited(server.child);
    server.child.kill('SIGTERM');
    const { code, ms } = await Promise.race([
      gone,
      sleep(20_000).then(() => ({ code: -1, ms: 20_000 })),
    ]);
    expect(code).toBe(0);
    expect(ms).toBeLessThan(5_000);
  }, 30_000);

  it('exits within its bound when the log reader stops reading (issue 17, item 9)', async () => {
    const server = await start('stalled-reader');
    // The reader stays but reads nothing: the pipe fills with access-log lines.
    server.child.stdout!.pause();
    for (let i = 0; i < 1500; i++)
      await fetch(`${server.url}/configs/${'x'.repeat(200)}${i}`).then((r) =>
        r.arrayBuffer(),
      );
    const gone = exited(server.child);
    server.child.kill('SIGTERM');
    const { code, ms } = await Promise.race([
      gone,
      sleep(20_000).then(() => ({ code: -1, ms: 20_000 })),
    ]);
    expect(code).toBe(0);
    expect(ms).toBeLessThan(5_000);
  }, 60_000);

  it('exits at once on a second SIGTERM while a request holds the stop (issue 17, item 9)', async () => {
    const server = await start('second-signal');
    // A PUT whose body never ends keeps the graceful stop waiting.
    const req = request({
      host: '127.0.0.1',
      port: server.port,
      method: 'PUT',
      path: '/configs/slow',
      headers: { 'Content-Type': 'application/json', 'Content-Length': 100 },
    });
    req.on('error', () => undefined);
    req.write('{"allLinks"');
    await sleep(200);
    const gone = exited(server.child);
    server.child.kill('SIGTERM');
    await sleep(300);
    server.child.kill('SIGTERM');
    const { code, ms } = await Promise.race([
      gone,
      sleep(5_000).then(() => ({ code: -1, ms: 5_000 })),
    ]);
    expect(code).toBe(1);
    expect(ms).toBeLessThan(2_000);
    req.destroy();
  }, 30_000);
});
