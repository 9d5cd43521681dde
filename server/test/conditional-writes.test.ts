/**
 * Conditional writes over REST and tRPC (If-Match / If-None-Match → 412 with the current ETag), on both
 * real databases. Racing writers on several instances are in `multi-instance.test.ts` and
 * `sqlite-processes.test.ts`.
 */
import { TRPCError } from '@trpc/server';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { createContextInner } from '../src/context.js';
import { appRouter } from '../src/routers/app-router.js';
import { createCallerFactory } from '../src/trpc.js';
import { postgresDatabases, sqliteDatabases } from './test-databases.js';
import { createTestApp } from './test-app.js';
import type { TestApp } from './test-app.js';

const databases = [sqliteDatabases(), postgresDatabases()];
afterAll(async () => {
  for (const db of databases) await db.cleanup();
});

const body = (v: number) => ({ allLinks: { a: { url: `https://v${v}` } } });

describe.each(databases)('conditional writes on $kind', (db) => {
  let t: TestApp;
  beforeEach(async () => {
    t = createTestApp({ repository: await db.create() });
    return () => t.repository.close();
  });

  const etagOf = async (name: string) =>
    (await t.request(`/configs/${name}`)).headers.get('etag');
  const stored = async (name: string) =>
    (await t.json<{ config: unknown }>(`/configs/${name}`)).body?.config;
  const expect412 = async (response: Response, etag: string | null) => {
    expect(response.status).toBe(412);
    expect(response.headers.get('etag')).toBe(etag);
    expect(((await response.json()) as { error: string }).error).toMatch(
      /config "n"/,
    );
  };

  it('answers PUT with the new ETag, the one GET then sends', async () => {
    const put = await t.put('n', body(1));
    expect(put.status).toBe(204);
    const etag = put.headers.get('etag');
    expect(etag).toMatch(/^"[0-9a-z]+-[0-9a-z]+"$/);
    expect(await etagOf('n')).toBe(etag);
    const again = await t.put('n', body(2));
    expect(again.headers.get('etag')).not.toBe(etag);
  });

  it('PUT with the current If-Match stores; a stale one gets 412 and the current ETag', async () => {
    const first = (await t.put('n', body(1))).headers.get('etag') ?? '';
    const second = await t.put('n', body(2), { 'If-Match': first });
    expect(second.status).toBe(204);
    const current = second.headers.get('etag');
    await expect412(await t.put('n', body(3), { 'If-Match': first }), current);
    expect(await stored('n')).toEqual(body(2));
  });

  it('PUT accepts a list of tags holding the current one', async () => {
    const etag = (await t.put('n', body(1))).headers.get('etag') ?? '';
    const put = await t.put('n', body(2), { 'If-Match': `"x-y", ${etag}` });
    expect(put.status).toBe(204);
  });

  it('PUT with a weak form of the current tag gets 412 (If-Match compares strongly)', async () => {
    const etag = (await t.put('n', body(1))).headers.get('etag') ?? '';
    await expect412(
      await t.put('n', body(2), { 'If-Match': `W/${etag}` }),
      etag,
    );
  });

  it('PUT with If-Match on a missing name gets 412 without an ETag, * included', async () => {
    await expect412(await t.put('n', body(1), { 'If-Match': '"1-x"' }), null);
    await expect412(await t.put('n', body(1), { 'If-Match': '*' }), null);
    expect((await t.request('/configs/n')).status).toBe(404);
  });

  it('PUT with If-Match: * overwrites an existing config', async () => {
    await t.put('n', body(1));
    expect((await t.put('n', body(2), { 'If-Match': '*' })).status).toBe(204);
    expect(await stored('n')).toEqual(body(2));
  });

  it('PUT with If-None-Match: * creates only', async () => {
    const created = await t.put('n', body(1), { 'If-None-Match': '*' });
    expect(created.status).toBe(204);
    await expect412(
      await t.put('n', body(2), { 'If-None-Match': '*' }),
      created.headers.get('etag'),
    );
    expect(await stored('n')).toEqual(body(1));
  });

  it('refuses malformed preconditions with 400', async () => {
    const cases: Record<string, string>[] = [
      { 'If-Match': 'unquoted' },
      { 'If-None-Match': '"a-b"' },
    ];
    for (const headers of cases) {
      const response = await t.put('n', body(1), headers);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: string }).error).toMatch(
        /^(If-Match|If-None-Match) /,
      );
    }
  });

  it('DELETE with the current If-Match deletes; a stale one gets 412 and keeps the config', async () => {
    const first = (await t.put('n', body(1))).headers.get('etag') ?? '';
    const current = (await t.put('n', body(2))).headers.get('etag') ?? '';
    await expect412(
      await t.request('/configs/n', {
        method: 'DELETE',
        headers: { 'If-Match': first },
      }),
      current,
    );
    expect(await stored('n')).toEqual(body(2));
    const deleted = await t.request('/configs/n', {
      method: 'DELETE',
      headers: { 'If-Match': current },
    });
    expect(deleted.status).toBe(204);
    expect((await t.request('/configs/n')).status).toBe(404);
  });

  it('DELETE with If-Match on a missing name gets 412; without it, 204 as before', async () => {
    await expect412(
      await t.request('/configs/n', {
        method: 'DELETE',
        headers: { 'If-Match': '*' },
      }),
      null,
    );
    expect((await t.request('/configs/n', { method: 'DELETE' })).status).toBe(
      204,
    );
  });

  it('keeps every write unconditional without the headers', async () => {
    await t.put('n', body(1));
    expect((await t.put('n', body(2))).status).toBe(204);
    expect((await t.request('/configs/n', { method: 'DELETE' })).status).toBe(
      204,
    );
    expect((await t.request('/configs/n', { method: 'DELETE' })).status).toBe(
      204,
    );
  });

  it('lets tRPC callers do the same: put returns the ETag, stale ones fail with PRECONDITION_FAILED', async () => {
    const api = createCallerFactory(appRouter)(createContextInner(t.services));
    const { etag } = await api.configs.put({ name: 'n', config: body(1) });
    const { etag: next } = await api.configs.put({
      name: 'n',
      config: body(2),
      ifMatch: etag,
    });
    const failed = await api.configs
      .put({ name: 'n', config: body(3), ifMatch: etag })
      .catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(TRPCError);
    expect((failed as TRPCError).code).toBe('PRECONDITION_FAILED');
    const created = await api.configs
      .put({ name: 'n', config: body(3), ifNoneMatch: '*' })
      .catch((e: unknown) => e);
    expect((created as TRPCError).code).toBe('PRECONDITION_FAILED');
    await expect(
      api.configs.remove({ name: 'n', ifMatch: etag }),
    ).rejects.toThrow(/has changed/);
    await api.configs.remove({ name: 'n', ifMatch: next });
    expect(await api.configs.list()).toEqual([]);
  });
});

describe('CORS for conditional writes and the feed', () => {
  it('allows the headers a browser asks for from an allowed origin, and exposes ETag and Retry-After', async () => {
    const t = createTestApp({ corsOrigins: ['https://app.example'] });
    const preflight = await t.request('/configs/n', {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://app.example',
        'Access-Control-Request-Method': 'PUT',
        'Access-Control-Request-Headers': 'if-match, x-client-version',
      },
    });
    expect(preflight.headers.get('access-control-allow-headers')).toBe(
      'if-match,x-client-version',
    );
    const put = await t.put('n', body(1), { Origin: 'https://app.example' });
    expect(put.headers.get('access-control-expose-headers')).toBe(
      'ETag,X-Request-Id,Retry-After',
    );
  });

  it('allows only the configured headers when CORS_HEADERS is set', async () => {
    const t = createTestApp({
      corsOrigins: ['https://app.example'],
      corsHeaders: ['Authorization', 'If-Match'],
    });
    const preflight = await t.request('/configs/n', {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://app.example',
        'Access-Control-Request-Method': 'PUT',
        'Access-Control-Request-Headers': 'x-client-version',
      },
    });
    expect(preflight.headers.get('access-control-allow-headers')).toBe(
      'Authorization,If-Match',
    );
  });
});

describe('config names', () => {
  it.each(['.', '..'])(
    'refuses %j through tRPC, which REST could never address',
    async (name) => {
      const t = createTestApp();
      const response = await t.request('/trpc/configs.put', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ name, config: { allLinks: {} } }),
      });
      expect(response.status).toBe(400);
      expect(await t.json('/configs')).toEqual({ status: 200, body: [] });
    },
  );
});
