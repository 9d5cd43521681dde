import { spawn } from 'node:child_process';
import { request } from 'node:http';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it, vi } from 'vitest';

const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
/** Makes tsx resolve the workspace packages to their sources, as the tests do. */
const tsconfig = fileURLToPath(
  new URL('../../tsconfig.spec.json', import.meta.url),
);
const dir = mkdtempSync(join(tmpdir(), 'linkconfig-kill-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** Starts `main.ts` in a child process and resolves with its URL once it logs "listening". */
function start(db: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', main, '--port', '0', '--host', '127.0.0.1'],
    {
      env: {
        ...process.env,
        TSX_TSCONFIG_PATH: tsconfig,
        DATABASE_URL: `sqlite:${db}`,
        LOG_LEVEL: 'info',
        NODE_ENV: 'production',
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
      if (entry.msg === 'listening' && entry.url)
        resolve({ child, url: entry.url });
    });
  });
}

const exited = (child: ChildProcess): Promise<unknown> =>
  new Promise((resolve) => child.once('exit', resolve));

describe('durability', () => {
  it('keeps every write acknowledged with 204 across kill -9 and restart', async () => {
    const db = join(dir, 'kill.db');
    const first = await start(db);
    const acknowledged: string[] = [];
    for (let i = 0; i < 20; i++) {
      const response = await fetch(`${first.url}/configs/c${i}`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          allLinks: { [`l${i}`]: { url: `https://e/${i}` } },
        }),
      });
      if (response.status === 204) acknowledged.push(`c${i}`);
    }
    expect(acknowledged).toHaveLength(20);
    const gone = exited(first.child);
    first.child.kill('SIGKILL');
    await gone;
    const second = await start(db);
    const names = (await (
      await fetch(`${second.url}/configs`)
    ).json()) as string[];
    for (const name of acknowledged) expect(names).toContain(name);
    const entry = (await (await fetch(`${second.url}/configs/c19`)).json()) as {
      config: unknown;
    };
    expect(entry.config).toEqual({
      allLinks: { l19: { url: 'https://e/19' } },
    });
    const stopped = exited(second.child);
    second.child.kill('SIGTERM');
    expect(await stopped).toBe(0);
    const check = new Database(db, { readonly: true });
    expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
    check.close();
  });

  it('finishes an in-flight PUT on SIGTERM, refuses new connections, and exits', async () => {
    const db = join(dir, 'term.db');
    const server = await start(db);
    const { port } = new URL(server.url);
    const body = JSON.stringify({
      allLinks: { slow: { url: 'https://slow' } },
    });
    // A PUT whose body arrives in two halves, with SIGTERM in between.
    let finish = (): void => undefined;
    const answered = new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          method: 'PUT',
          path: '/configs/slow',
          headers: {
            'Content-Type': 'application/json',
            'Content-Length': Buffer.byteLength(body),
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, 10));
      finish = () => req.end(body.slice(10));
    });
    const gone = exited(server.child);
    // Let the request reach the server before the signal.
    await new Promise((resolve) => setTimeout(resolve, 200));
    server.child.kill('SIGTERM');
    // New connections are refused while the PUT is still open…
    await vi.waitFor(
      () => expect(fetch(`${server.url}/healthz`)).rejects.toThrow(),
      { timeout: 10_000 },
    );
    // …and the PUT still completes once its body arrives.
    finish();
    expect(await answered).toBe(204);
    expect(await gone).toBe(0);
    const again = await start(db);
    const entry = (await (await fetch(`${again.url}/configs/slow`)).json()) as {
      config: unknown;
    };
    expect(entry.config).toEqual({
      allLinks: { slow: { url: 'https://slow' } },
    });
    again.child.kill('SIGTERM');
  });
});
