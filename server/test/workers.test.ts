/**
 * `WORKERS=2`, the processes themselves (on one SQLite file): `/metrics` on either worker counts the
 * requests of both; a worker killed is restarted; SIGTERM to the primary stops every worker gracefully.
 * Coherence between the workers (reads, change feed, revoked keys) on SQLite and PostgreSQL:
 * workers-coherence.test.ts. Which worker answers is learnt from `/healthz` (workers-cluster.ts).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { connect, startCluster } from './workers-cluster.js';
import type { Cluster, Connection } from './workers-cluster.js';

const dir = mkdtempSync(
  join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'linkconfig-workers-'),
);
let cluster: Cluster;
/** Every `/healthz` asked, answered by either worker. */
let healthChecks = 0;

const counted = async (
  wanted?: (pid: number) => boolean,
): Promise<Connection> => {
  for (;;) {
    const conn = await connect(cluster.base);
    healthChecks++;
    if (wanted === undefined || wanted(conn.pid)) return conn;
    conn.close();
  }
};

beforeAll(async () => {
  cluster = await startCluster({
    databaseUrl: `sqlite:${join(dir, 'shared.db')}`,
  });
}, 120_000);
afterAll(async () => {
  try {
    await cluster?.stop();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);

describe('WORKERS=2 processes', () => {
  let a: Connection;
  let b: Connection;

  beforeAll(async () => {
    a = await counted();
    b = await counted((pid) => pid !== a.pid);
  }, 60_000);

  it('serves from two worker processes on one port', () => {
    expect(a.pid).not.toBe(b.pid);
    expect(a.pid).not.toBe(cluster.primary.pid);
  });

  it('renders the metrics of both workers on /metrics', async () => {
    const { text } = await a.send('GET', { path: '/metrics' });
    const match =
      /^linkconfig_http_requests_total\{[^}]*route="\/healthz"[^}]*\} (\d+)$/m.exec(
        text,
      );
    expect(Number(match?.[1])).toBe(healthChecks);
  });

  it('restarts a worker that was killed', async () => {
    process.kill(b.pid, 'SIGKILL');
    b.close();
    await vi.waitFor(
      () =>
        expect(
          cluster.log.some(
            (e) => e.msg === 'worker ended unexpectedly; restarting it',
          ),
        ).toBe(true),
      { timeout: 10_000 },
    );
    const fresh = await vi.waitFor(
      () => connect(cluster.base, (pid) => pid !== a.pid && pid !== b.pid),
      { timeout: 60_000, interval: 500 },
    );
    expect(fresh.pid).toBeGreaterThan(0);
    fresh.close();
  }, 90_000);

  it('stops every worker gracefully on SIGTERM to the primary', async () => {
    const workers = [
      a.pid,
      ...new Set(cluster.log.filter((e) => e.worker).map((e) => e.worker ?? 0)),
    ];
    a.close();
    cluster.primary.kill('SIGTERM');
    expect(await cluster.exited).toBe(0);
    expect(cluster.log.some((e) => e.msg === 'all workers stopped')).toBe(true);
    for (const pid of workers) {
      expect(() => process.kill(pid, 0)).toThrow();
    }
  }, 60_000);
});
