/**
 * Two server instances on one PostgreSQL database (the deployment for several instances): a write through
 * either is seen by the other at once, even where the reader had the old version cached.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../src/start-server.js';
import type { RunningServer } from '../src/start-server.js';
import { createPostgresConfigRepository } from '../src/storage/postgres-config-repository.js';

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
