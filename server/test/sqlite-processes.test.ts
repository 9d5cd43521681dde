/**
 * Two server processes on one SQLite file: writes wait for each other instead of failing (`BEGIN
 * IMMEDIATE` and the busy timeout), conditional writers racing on both get exactly one success, and each
 * process's change feed carries the other's writes (`PRAGMA data_version` poll).
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { listen } from './sse-client.js';

const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
/** Makes tsx resolve the workspace packages to their sources, as the tests do. */
const tsconfig = fileURLToPath(
  new URL('../../tsconfig.spec.json', import.meta.url),
);
// On tmpfs when there is one: commits do not wait for a disk (durability is tested elsewhere), so the
// two processes contend for the write lock far more often, and the test runs in seconds.
const dir = mkdtempSync(
  join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'linkconfig-procs-'),
);
const db = join(dir, 'shared.db');
const children: ChildProcess[] = [];
let one: string;
let two: string;

/** Starts `main.ts` on the shared file and resolves with its URL once it logs "listening". */
function start(): Promise<string> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', main, '--port', '0', '--host', '127.0.0.1'],
    {
      env: {
        ...process.env,
        TSX_TSCONFIG_PATH: tsconfig,
        DATABASE_URL: `sqlite:${db}`,
        LOG_LEVEL: 'info',
        SEED: 'none',
        NODE_ENV: 'production',
        // 3,000 PUTs from one client in a few seconds is far over the write budget, on purpose.
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
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const entry = JSON.parse(line) as { msg?: string; url?: string };
      if (entry.msg === 'listening' && entry.url) resolve(entry.url);
    });
  });
}

beforeAll(async () => {
  // One after the other: the first creates the file and runs the migrations.
  one = await start();
  two = await start();
}, 60_000);
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const put = (url: string, name: string, headers: Record<string, string> = {}) =>
  fetch(`${url}/configs/${encodeURIComponent(name)}`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify({ allLinks: { l: { url: `https://${name}` } } }),
  });

describe('two server processes on one SQLite file', () => {
  it('lets 3,000 concurrent PUTs split between them all succeed, each with its own change id', async () => {
    const total = 3000;
    const perWorker = 125;
    const failures: string[] = [];
    // 24 concurrent clients, half on each process, over 40 names.
    await Promise.all(
      Array.from({ length: total / perWorker }, async (_, worker) => {
        const url = worker % 2 === 0 ? one : two;
        for (let i = 0; i < perWorker; i++) {
          const response = await put(url, `n${(worker * perWorker + i) % 40}`);
          if (response.status !== 204) {
            failures.push(`${response.status} ${await response.text()}`);
          }
        }
      }),
    );
    expect(failures).toEqual([]);
    const check = new Database(db, { readonly: true });
    const { count, last } = check
      .prepare<[], { count: number; last: number }>(
        'SELECT COUNT(*) AS count, MAX(id) AS last FROM revisions',
      )
      .get()!;
    check.close();
    expect(count).toBe(total);
    expect(last).toBe(total);
  }, 120_000);

  it('lets exactly one of the writers racing with the same If-Match through', async () => {
    const etag = (await put(one, 'race')).headers.get('etag') ?? '';
    const statuses = await Promise.all(
      Array.from(
        { length: 10 },
        async (_, i) =>
          (await put(i % 2 === 0 ? one : two, 'race', { 'If-Match': etag }))
            .status,
      ),
    );
    expect(statuses.filter((s) => s === 204)).toHaveLength(1);
    expect(statuses.filter((s) => s === 412)).toHaveLength(9);
  });

  it('delivers a write through one process to the other process’s event stream', async () => {
    const stream = listen(`${two}/events`);
    await stream.opened;
    const etag = (await put(one, 'seen-elsewhere')).headers.get('etag');
    await vi.waitFor(() => expect(stream.events).toHaveLength(1), {
      timeout: 5000,
    });
    expect(JSON.parse(stream.events[0]?.data ?? '')).toMatchObject({
      name: 'seen-elsewhere',
      op: 'put',
      etag,
    });
    stream.close();
  });
});
