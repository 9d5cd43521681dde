/**
 * `WORKERS=2` on each storage (one SQLite file; one PostgreSQL schema): a write answered by one worker is
 * read, fresh, from the other, whose cache held the old version, and reaches the other's change feed; a
 * key revoked through `DELETE /keys/:id` or tRPC `keys.revoke` on one worker, or by `linkconfig keys revoke` in another process,
 * is refused by every worker, and an open stream of that key on the other worker ends. A worker keeps a
 * key it looked up for at most 500 ms (docs/operations.md), so the revoke tests ask each worker again
 * until it refuses (up to some 15 s), and check that no worker accepts the key once it has refused it.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CreateKeyOutput } from '@linkconfig/shared';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runLinkconfig } from './cli-run.js';
import { dropSchemas, TEST_POSTGRES_URL } from './test-databases.js';
import { connect, probe, startCluster, twoWorkers } from './workers-cluster.js';
import type { Cluster, Sent, WorkerAt } from './workers-cluster.js';

/** A database for one cluster: its `DATABASE_URL`, and how to remove it. */
interface Storage {
  readonly url: string;
  cleanup(): Promise<void>;
}

const sqlite = (): Storage => {
  const dir = mkdtempSync(
    join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'linkconfig-workers-'),
  );
  return {
    url: `sqlite:${join(dir, 'shared.db')}`,
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
};

const postgres = (): Storage => {
  const schema = `lc_w${randomBytes(4).toString('hex')}`;
  const url = new URL(TEST_POSTGRES_URL);
  url.searchParams.set('schema', schema);
  return { url: url.toString(), cleanup: () => dropSchemas(schema) };
};

const config = (label: string) =>
  JSON.stringify({ allLinks: { l: { url: 'https://example.com/', label } } });
const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });

/** Collects a stream's text, and whether it has ended. */
function collect(stream: IncomingMessage): {
  text: () => string;
  ended: () => boolean;
} {
  let text = '';
  let ended = false;
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => (text += chunk));
  stream.once('close', () => (ended = true));
  return { text: () => text, ended: () => ended };
}

describe.each([
  { kind: 'SQLite', storage: sqlite },
  { kind: 'PostgreSQL', storage: postgres },
])('WORKERS=2 on $kind', ({ storage }) => {
  const db = storage();
  let cluster: Cluster | undefined;
  let admin: Record<string, string>;
  let a: WorkerAt;
  let b: WorkerAt;
  const base = () => cluster?.base ?? '';

  beforeAll(async () => {
    // The first admin key, made on the database before the server starts (as operators do).
    const made = await runLinkconfig(
      [
        'keys',
        'create',
        '--label',
        'admin',
        '--scope',
        'admin',
        '--configs',
        '*',
      ],
      { DATABASE_URL: db.url },
    );
    expect(made.code, made.stderr).toBe(0);
    admin = bearer(made.stdout.trim().split('\n').at(-1) ?? '');
    cluster = await startCluster({ databaseUrl: db.url });
    [a, b] = await twoWorkers(base());
  }, 120_000);
  afterAll(async () => {
    try {
      await cluster?.stop();
    } finally {
      await db.cleanup();
    }
  }, 60_000);

  /** Asks, each time on a new connection, until every worker has answered as `wanted` (≤ 300 rounds). */
  async function untilEveryWorker(
    sent: Sent,
    wanted: (status: number, text: string) => boolean,
  ): Promise<void> {
    const workers = [a.pid, b.pid];
    const done = new Set<number>();
    for (let round = 0; round < 300 && done.size < workers.length; round++) {
      const answer = await probe(base(), 'GET', sent).catch(() => undefined);
      if (answer !== undefined) {
        expect(workers).toContain(answer.pid);
        if (wanted(answer.status, answer.text)) done.add(answer.pid);
        // Once a worker answered as wanted, it must go on doing so.
        else expect(done.has(answer.pid), answer.text).toBe(false);
      }
      if (done.size < workers.length) await sleep(50);
    }
    expect([...done].sort()).toEqual([...workers].sort());
  }

  const accepted = (status: number) => status === 200;
  const revoked = (status: number, text: string) =>
    status === 401 && JSON.parse(text).error === 'the key was revoked';

  /** A new read key, made through `POST /keys` on worker a, and used once on every worker. */
  async function readKey(label: string): Promise<CreateKeyOutput> {
    const made = await a.send('POST', {
      path: '/keys',
      headers: admin,
      body: JSON.stringify({ label, scope: 'read', configs: ['*'] }),
    });
    expect(made.status).toBe(201);
    const key = JSON.parse(made.text) as CreateKeyOutput;
    // Every worker now keeps the key as valid.
    await untilEveryWorker(
      { path: '/configs', headers: bearer(key.secret) },
      accepted,
    );
    return key;
  }

  it('serves from two worker processes on one port', () => {
    expect(a.pid).not.toBe(b.pid);
    expect(a.pid).not.toBe(cluster?.primary.pid);
  });

  it('reads on one worker what another wrote, though its cache held the old version', async () => {
    const put = (label: string) =>
      a.send('PUT', {
        path: '/configs/shared',
        headers: admin,
        body: config(label),
      });
    const read = async () =>
      JSON.parse(
        (await b.send('GET', { path: '/configs/shared', headers: admin })).text,
      ) as unknown;
    expect((await put('one')).status).toBe(204);
    expect(await read()).toMatchObject({
      config: { allLinks: { l: { label: 'one' } } },
    });
    expect((await put('two')).status).toBe(204);
    expect(await read()).toMatchObject({
      config: { allLinks: { l: { label: 'two' } } },
    });
    const search = await b.send('GET', {
      path: '/search?q=two',
      headers: admin,
    });
    expect(search.text).toContain('"two"');
  });

  it("sends another worker's writes on its change feed", async () => {
    const feed = await connect(base(), (pid) => pid === b.pid);
    const stream = await feed.open('/events', admin);
    const events = collect(stream);
    try {
      expect(stream.statusCode).toBe(200);
      const put = await a.send('PUT', {
        path: '/configs/fed',
        headers: admin,
        body: config('fed'),
      });
      expect(put.status).toBe(204);
      await vi.waitFor(() => expect(events.text()).toContain('"fed"'), {
        timeout: 15_000,
        interval: 100,
      });
    } finally {
      feed.close();
    }
  });

  it.each([
    {
      route: 'DELETE /keys/:id',
      method: 'DELETE',
      sent: (id: string) => ({ path: `/keys/${id}` }),
      status: 204,
    },
    {
      route: 'tRPC keys.revoke',
      method: 'POST',
      sent: (id: string) => ({
        path: '/trpc/keys.revoke',
        body: JSON.stringify({ id }),
      }),
      status: 200,
    },
  ])(
    'refuses on every worker a key revoked through $route on one of them',
    async ({ route, method, sent, status }) => {
      const key = await readKey(`revoked by ${route}`);
      const answer = await a.send(method, { ...sent(key.id), headers: admin });
      expect(answer.status, answer.text).toBe(status);
      // The worker that revoked it forgets the keys it kept: refused on the next request.
      const next = await a.send('GET', {
        path: '/configs',
        headers: bearer(key.secret),
      });
      expect(revoked(next.status, next.text)).toBe(true);
      await untilEveryWorker(
        { path: '/configs', headers: bearer(key.secret) },
        revoked,
      );
    },
    60_000,
  );

  it('refuses on every worker a key revoked with `linkconfig keys revoke` (another process)', async () => {
    const key = await readKey('revoked by the CLI');
    const run = await runLinkconfig(['keys', 'revoke', key.id], {
      DATABASE_URL: db.url,
    });
    expect(run.code, run.stderr).toBe(0);
    await untilEveryWorker(
      { path: '/configs', headers: bearer(key.secret) },
      revoked,
    );
  }, 60_000);

  it("ends the key's open event stream on the other worker", async () => {
    const key = await readKey('streaming');
    const feed = await connect(base(), (pid) => pid === b.pid);
    try {
      const stream = await feed.open('/events', bearer(key.secret));
      expect(stream.statusCode).toBe(200);
      const { ended, text } = collect(stream);
      const answer = await a.send('DELETE', {
        path: `/keys/${key.id}`,
        headers: admin,
      });
      expect(answer.status).toBe(204);
      // The stream's own check (every 500 ms) finds the key revoked and ends it.
      await vi.waitFor(() => expect(ended()).toBe(true), {
        timeout: 15_000,
        interval: 100,
      });
      // Ended as a stream ends (its last chunk sent), not cut off with an error.
      expect(stream.complete).toBe(true);
      expect(text()).not.toContain('Error');
      await untilEveryWorker(
        { path: '/configs', headers: bearer(key.secret) },
        revoked,
      );
    } finally {
      feed.close();
    }
  }, 60_000);
});
