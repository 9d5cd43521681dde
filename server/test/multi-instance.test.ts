/**
 * Two server instances on one PostgreSQL database (the deployment for several instances): a write through
 * either is seen by the other at once, even where the reader had the old version cached; conditional
 * writers racing on both get exactly one success; the change feed of each carries the other's writes.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer } from '../src/start-server.js';
import type { RunningServer } from '../src/start-server.js';
import { createPostgresConfigRepository } from '../src/storage/postgres/postgres-config-repository.js';
import { listen } from './sse-client.js';

const url =
  process.env['TEST_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `lc_multi_${randomBytes(4).toString('hex')}`;
let a: RunningServer;
let b: RunningServer;

const start = async (): Promise<RunningServer> =>
  startServer({
    port: 0,
    host: '127.0.0.1',
    repository: await createPostgresConfigRepository({
      connectionString: url,
      schema,
    }),
    logger: pino({ level: 'silent' }),
  });

beforeAll(async () => {
  a = await start();
  b = await start();
});
afterAll(async () => {
  await Promise.all([a.close(), b.close()]);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
});

const put = (server: RunningServer, name: string, body: unknown) =>
  fetch(`${server.url}/configs/${encodeURIComponent(name)}`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
const getJson = async <T>(server: RunningServer, path: string): Promise<T> =>
  (await (await fetch(`${server.url}${path}`)).json()) as T;

describe('two instances on one PostgreSQL database', () => {
  it('seed the demo config once and list the same names', async () => {
    expect(await getJson(a, '/configs')).toEqual(['demo']);
    expect(await getJson(b, '/configs')).toEqual(['demo']);
  });

  it('see each other’s writes immediately, through every read path', async () => {
    expect(
      (
        await put(a, 'shared', {
          allLinks: { x: { url: 'https://one', tags: ['t'] } },
        })
      ).status,
    ).toBe(204);
    // b caches version 1 of "shared" in all its forms.
    const first = await getJson<{
      config: { allLinks: Record<string, { url: string }> };
    }>(b, '/configs/shared');
    expect(first.config.allLinks['x']?.url).toBe('https://one');
    await getJson(b, '/search?tag=t');
    await fetch(`${b.url}/query`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"expression":".t","configName":"shared"}',
    });

    expect(
      (
        await put(a, 'shared', {
          allLinks: { y: { url: 'https://two', tags: ['t'] } },
        })
      ).status,
    ).toBe(204);
    const second = await getJson<{
      config: { allLinks: Record<string, unknown> };
    }>(b, '/configs/shared');
    expect(Object.keys(second.config.allLinks)).toEqual(['y']);
    const found = await getJson<{ results: { id: string }[] }>(
      b,
      '/search?tag=t',
    );
    expect(found.results.map((r) => r.id)).toEqual(['y']);
    const queried = (await (
      await fetch(`${b.url}/query`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{"expression":".t","configName":"shared"}',
      })
    ).json()) as { results: { id: string }[] };
    expect(queried.results.map((r) => r.id)).toEqual(['y']);

    expect(
      (await fetch(`${b.url}/configs/shared`, { method: 'DELETE' })).status,
    ).toBe(204);
    expect((await fetch(`${a.url}/configs/shared`)).status).toBe(404);
  });

  it('keep createdAt across instances', async () => {
    await put(a, 'dates', { allLinks: {} });
    const before = await getJson<{ meta: { createdAt: string } }>(
      a,
      '/configs/dates',
    );
    await put(b, 'dates', { allLinks: { k: { url: '' } } });
    const after = await getJson<{
      meta: { createdAt: string; updatedAt: string };
    }>(a, '/configs/dates');
    expect(after.meta.createdAt).toBe(before.meta.createdAt);
  });
});

describe('conditional writes and the change feed across two instances', () => {
  it('lets exactly one of many writers racing with the same If-Match through, on either instance', async () => {
    const first = await put(a, 'race', { allLinks: {} });
    const etag = first.headers.get('etag') ?? '';
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        fetch(`${(i % 2 === 0 ? a : b).url}/configs/race`, {
          method: i % 3 === 0 ? 'DELETE' : 'PUT',
          headers: { 'Content-Type': 'application/json', 'If-Match': etag },
          body:
            i % 3 === 0
              ? null
              : JSON.stringify({ allLinks: { w: { url: `https://${i}` } } }),
        }),
      ),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 204)).toHaveLength(1);
    expect(statuses.filter((s) => s === 412)).toHaveLength(11);
    // Every loser is told the winner's state: its ETag, or none when it was a delete.
    const winner = answers.find((r) => r.status === 204);
    const current = winner?.headers.get('etag') ?? null;
    for (const loser of answers.filter((r) => r.status === 412)) {
      expect(loser.headers.get('etag')).toBe(current);
    }
  });

  it('delivers a write on one instance to the other instance’s stream, with the same ids', async () => {
    const onA = listen(`${a.url}/events`);
    const onB = listen(`${b.url}/events`);
    await Promise.all([onA.opened, onB.opened]);
    const etag = (await put(a, 'live', { allLinks: {} })).headers.get('etag');
    await fetch(`${b.url}/configs/live`, { method: 'DELETE' });
    // LISTEN/NOTIFY brings it within a second; the margin is for a loaded test machine.
    await vi.waitFor(() => expect(onB.events).toHaveLength(2), {
      timeout: 15_000,
    });
    await vi.waitFor(() => expect(onA.events).toHaveLength(2), {
      timeout: 15_000,
    });
    expect(onB.events).toEqual(onA.events);
    expect(JSON.parse(onB.events[0]?.data ?? '')).toMatchObject({
      name: 'live',
      op: 'put',
      etag,
    });
    onA.close();
    onB.close();
  });
});
