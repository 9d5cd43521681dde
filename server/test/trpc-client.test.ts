import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRouter } from '../src/index.js';
import { startServer } from '../src/start-server.js';
import type { RunningServer } from '../src/start-server.js';

const dir = mkdtempSync(join(tmpdir(), 'linkconfig-trpc-'));
let server: RunningServer;

beforeAll(async () => {
  server = await startServer({
    port: 0,
    host: '127.0.0.1',
    databaseUrl: `sqlite:${join(dir, 'db.sqlite')}`,
    logger: pino({ level: 'silent' }),
    apiToken: 'secret',
  });
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const client = (token?: string) =>
  createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: `${server.url}/trpc`,
        headers:
          token === undefined ? {} : { Authorization: `Bearer ${token}` },
      }),
    ],
  });

describe('@trpc/client against /trpc on a real server', () => {
  it('calls every procedure with inferred types', async () => {
    const api = client('secret');
    expect(await api.configs.list.query()).toEqual(['demo']);
    await api.configs.put.mutate({
      name: 'x y',
      config: {
        name: 'inner',
        allLinks: { a: { url: 'javascript:1', tags: ['t'] } },
      },
    });
    const entry = await api.configs.get.query({ name: 'x y' });
    expect(entry.config.allLinks['a']?.url).toBe('about:blank');
    expect(entry.config['name']).toBe('inner');
    const found = await api.search.links.query({ tag: 't' });
    expect(found.results.map((r) => r.configName)).toEqual(['x y']);
    const picked = await api.expressions.cherryPick.mutate({
      source: 'demo',
      expression: '.car',
    });
    expect(Object.keys(picked.allLinks)).toEqual(['vwbug', 'miata', 'mustang']);
    const queried = await api.expressions.query.mutate({
      expression: '.t',
      configName: 'x y',
    });
    expect(queried.results.map((r) => r.id)).toEqual(['a']);
    await api.configs.remove.mutate({ name: 'x y' });
    expect(await api.configs.list.query()).toEqual(['demo']);
  });

  it('reads history and restores through the typed procedures', async () => {
    const api = client('secret');
    await api.configs.put.mutate({
      name: 'h',
      config: { allLinks: { a: { url: 'https://a' } } },
    });
    await api.configs.put.mutate({
      name: 'h',
      config: { allLinks: { b: { url: 'https://b' } } },
    });
    const page = await api.history.list.query({ name: 'h', limit: 1 });
    expect(page.revisions.map((r) => [r.rev, r.summary])).toEqual([
      [2, { added: 1, removed: 1, changed: 0 }],
    ]);
    expect(page.next).toBe(2);
    const one = await api.history.revision.query({ name: 'h', rev: 1 });
    expect(Object.keys(one.config.allLinks)).toEqual(['a']);
    const diff = await api.history.diff.query({ name: 'h', from: 1 });
    expect([diff.added, diff.removed]).toEqual([['b'], ['a']]);
    const restored = await api.history.restore.mutate({ name: 'h', rev: 1 });
    expect(restored.rev).toBe(3);
    const trail = await api.history.audit.query({ config: 'h' });
    expect(trail.entries.map((e) => e.op)).toEqual(['put', 'put', 'restore']);
    await api.configs.remove.mutate({ name: 'h' });
    expect(await api.configs.list.query({ deleted: 'true' })).toContain('h');
  });

  it('reports errors with their tRPC codes', async () => {
    const error = await client('secret')
      .configs.get.query({ name: 'missing' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCClientError);
    expect((error as TRPCClientError<AppRouter>).data?.code).toBe('NOT_FOUND');
    const denied = await client()
      .configs.put.mutate({ name: 'n', config: { allLinks: {} } })
      .catch((e: unknown) => e);
    expect((denied as TRPCClientError<AppRouter>).data?.code).toBe(
      'UNAUTHORIZED',
    );
  });

  it('gives the stored version of a refused precondition in data.etag (issue 17)', async () => {
    const api = client('secret');
    const { etag } = await api.configs.put.mutate({
      name: 'guarded',
      config: { allLinks: {} },
    });
    const stale = await api.configs.put
      .mutate({
        name: 'guarded',
        config: { allLinks: {} },
        ifMatch: '"0-stale"',
      })
      .catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(TRPCClientError);
    const data = (stale as TRPCClientError<AppRouter>).data;
    expect(data?.code).toBe('PRECONDITION_FAILED');
    expect(data?.httpStatus).toBe(412);
    expect(data?.etag).toBe(etag);
    // Creating a name that exists: the same; a name that does not exist: `null`.
    const exists = await api.configs.put
      .mutate({ name: 'guarded', config: { allLinks: {} }, ifNoneMatch: '*' })
      .catch((e: unknown) => e);
    expect((exists as TRPCClientError<AppRouter>).data?.etag).toBe(etag);
    const missing = await api.configs.remove
      .mutate({ name: 'never-stored', ifMatch: etag })
      .catch((e: unknown) => e);
    expect((missing as TRPCClientError<AppRouter>).data).toMatchObject({
      code: 'PRECONDITION_FAILED',
      etag: null,
    });
    await api.configs.remove.mutate({ name: 'guarded' });
  });

  it('answers 413 to an oversized upload over a real socket, readable by fetch', async () => {
    const body = `{"allLinks":{"a":{"url":"${'x'.repeat(11 * 1024 * 1024)}"}}}`;
    const response = await fetch(`${server.url}/configs/big`, {
      method: 'PUT',
      headers: {
        'Content-Type': 'application/json',
        Authorization: 'Bearer secret',
      },
      body,
    });
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: string }).error).toMatch(
      /larger than the limit/,
    );
  });

  it('serves the REST routes and health on the same server', async () => {
    const health = await fetch(`${server.url}/healthz`);
    expect(await health.json()).toEqual({ status: 'ok' });
    const smoke = await fetch(`${server.url}/query`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"expression":".car"}',
    });
    expect(smoke.status).toBe(200);
  });
});
