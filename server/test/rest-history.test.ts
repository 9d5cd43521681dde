import { describe, expect, it } from 'vitest';
import { createTestApp } from './test-app.js';

const v1 = {
  allLinks: {
    a: { url: 'https://a.example', label: 'A' },
    b: { url: 'javascript:alert(1)', label: 'B' },
  },
};
const v2 = {
  allLinks: {
    a: { url: 'https://a.example', label: 'A2' },
    c: { url: 'https://c.example' },
  },
  settings: { theme: 'dark' },
};

/** An app holding `n` with revisions 1 (v1), 2 (v2), 3 (delete), 4 (v1 again). */
async function withHistory() {
  const t = createTestApp();
  expect((await t.put('n', v1, { 'X-Request-Id': 'req-1' })).status).toBe(204);
  t.setNow('2026-03-02T10:00:00.000Z');
  expect((await t.put('n', v2)).status).toBe(204);
  expect((await t.request('/configs/n', { method: 'DELETE' })).status).toBe(
    204,
  );
  expect((await t.put('n', v1)).status).toBe(204);
  return t;
}

interface Page {
  revisions: {
    rev: number;
    op: string;
    at: string;
    by: unknown;
    etag: string | null;
    size: number | null;
    summary: { added: number; removed: number; changed: number };
  }[];
  next: number | null;
}

describe('GET /configs/:name/history', () => {
  it('lists revisions newest first with what each changed, in pages', async () => {
    const t = await withHistory();
    const { status, body } = await t.json<Page>('/configs/n/history');
    expect(status).toBe(200);
    expect(body.next).toBeNull();
    expect(body.revisions.map((r) => [r.rev, r.op, r.summary])).toEqual([
      [4, 'put', { added: 2, removed: 0, changed: 0 }],
      [3, 'delete', { added: 0, removed: 2, changed: 0 }],
      [2, 'put', { added: 1, removed: 1, changed: 1 }],
      [1, 'put', { added: 2, removed: 0, changed: 0 }],
    ]);
    const current = await t.request('/configs/n');
    expect(body.revisions[0]?.etag).toBe(current.headers.get('etag'));
    expect(body.revisions[0]?.by).toBeNull();
    expect(body.revisions[1]).toMatchObject({ etag: null, size: null });
    expect(body.revisions[3]?.size).toBe(JSON.stringify(v1).length);
    const first = await t.json<Page>('/configs/n/history?limit=3');
    expect(first.body.revisions.map((r) => r.rev)).toEqual([4, 3, 2]);
    expect(first.body.next).toBe(2);
    const second = await t.json<Page>('/configs/n/history?limit=3&before=2');
    expect(second.body).toMatchObject({ revisions: [{ rev: 1 }], next: null });
    expect(second.body.revisions[0]?.summary.added).toBe(2);
  });

  it('works for a deleted config, and answers 404 for a name that never existed', async () => {
    const t = createTestApp();
    await t.put('gone', v1);
    await t.request('/configs/gone', { method: 'DELETE' });
    expect(
      (await t.json<Page>('/configs/gone/history')).body.revisions,
    ).toHaveLength(2);
    const missing = await t.json<{ error: string }>('/configs/never/history');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatch(/never|no history/);
  });

  it('refuses a bad limit or before with 400', async () => {
    const t = await withHistory();
    for (const query of [
      'limit=0',
      'limit=1001',
      'limit=x',
      'before=0',
      'before=1.5',
    ]) {
      const { status, body } = await t.json<{ error: string }>(
        `/configs/n/history?${query}`,
      );
      expect([query, status]).toEqual([query, 400]);
      expect(typeof body.error).toBe('string');
    }
  });
});

describe('GET /configs/:name/revisions/:rev', () => {
  it('answers a revision as stored then, URLs sanitized', async () => {
    const t = await withHistory();
    const { status, body } = await t.json<{ config: typeof v1; meta: unknown }>(
      '/configs/n/revisions/1',
    );
    expect(status).toBe(200);
    expect(body.config.allLinks.b.url).toBe('about:blank');
    expect(body.config.allLinks.a).toEqual(v1.allLinks.a);
    expect(body.meta).toEqual({
      rev: 1,
      op: 'put',
      at: '2026-03-01T10:00:00.000Z',
      by: null,
    });
  });

  it('answers 404 for an unknown revision or a delete, 400 for a bad number', async () => {
    const t = await withHistory();
    expect((await t.request('/configs/n/revisions/9')).status).toBe(404);
    expect((await t.request('/configs/n/revisions/3')).status).toBe(404);
    expect((await t.request('/configs/never/revisions/1')).status).toBe(404);
    expect((await t.request('/configs/n/revisions/x')).status).toBe(400);
  });
});

describe('GET /configs/:name/diff', () => {
  it('names links added, removed and changed field by field', async () => {
    const t = await withHistory();
    const { status, body } = await t.json('/configs/n/diff?from=1&to=2');
    expect(status).toBe(200);
    expect(body).toEqual({
      from: 1,
      to: 2,
      added: ['c'],
      removed: ['b'],
      changed: [{ id: 'a', fields: ['label'] }],
      macros: false,
      settings: true,
      searchPatterns: false,
    });
    const toNewest = await t.json<{ to: number; added: string[] }>(
      '/configs/n/diff?from=2',
    );
    expect(toNewest.body).toMatchObject({ to: 4, added: ['b'] });
  });

  it('answers 404 for an unknown revision and 400 without from', async () => {
    const t = await withHistory();
    expect((await t.request('/configs/n/diff?from=9')).status).toBe(404);
    expect((await t.request('/configs/never/diff?from=1')).status).toBe(404);
    expect((await t.request('/configs/n/diff')).status).toBe(400);
  });
});

describe('POST /configs/:name/restore', () => {
  it('stores a revision again as a revision of its own, with its ETag', async () => {
    const t = await withHistory();
    const response = await t.post('/configs/n/restore', { rev: 2 });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { rev: number; etag: string };
    expect(body.rev).toBe(5);
    expect(response.headers.get('etag')).toBe(body.etag);
    const current = await t.request('/configs/n');
    expect(current.headers.get('etag')).toBe(body.etag);
    expect(((await current.json()) as { config: unknown }).config).toEqual(v2);
    const page = await t.json<Page>('/configs/n/history?limit=1');
    expect(page.body.revisions[0]).toMatchObject({ rev: 5, op: 'restore' });
  });

  it('undeletes a deleted config', async () => {
    const t = createTestApp();
    await t.put('gone', v1);
    await t.request('/configs/gone', { method: 'DELETE' });
    expect((await t.json('/configs?deleted=true')).body).toEqual(['gone']);
    expect((await t.post('/configs/gone/restore', { rev: 1 })).status).toBe(
      200,
    );
    expect((await t.json('/configs')).body).toEqual(['gone']);
    expect((await t.json('/configs?deleted=true')).body).toEqual([]);
  });

  it('restores only the links named, removing those the revision did not have', async () => {
    const t = await withHistory();
    await t.put('n', v2);
    const response = await t.post('/configs/n/restore', {
      rev: 1,
      links: ['a', 'c'],
    });
    expect(response.status).toBe(200);
    const { body } = await t.json<{ config: typeof v2 }>('/configs/n');
    expect(body.config.allLinks).toEqual({ a: v1.allLinks.a });
    expect(body.config.settings).toEqual({ theme: 'dark' });
  });

  it('honours If-Match like PUT (412 with the current ETag)', async () => {
    const t = await withHistory();
    const current = (await t.request('/configs/n')).headers.get('etag') ?? '';
    const stale = await t.post(
      '/configs/n/restore',
      { rev: 2 },
      { 'If-Match': '"1-x"' },
    );
    expect(stale.status).toBe(412);
    expect(stale.headers.get('etag')).toBe(current);
    const ok = await t.post(
      '/configs/n/restore',
      { rev: 2 },
      { 'If-Match': current },
    );
    expect(ok.status).toBe(200);
  });

  it('answers 404 for an unknown revision or a delete, 400 for a bad body', async () => {
    const t = await withHistory();
    expect((await t.post('/configs/n/restore', { rev: 9 })).status).toBe(404);
    expect((await t.post('/configs/n/restore', { rev: 3 })).status).toBe(404);
    expect((await t.post('/configs/never/restore', { rev: 1 })).status).toBe(
      404,
    );
    expect((await t.post('/configs/n/restore', { rev: 'x' })).status).toBe(400);
    expect(
      (await t.post('/configs/n/restore', { rev: 1, links: [] })).status,
    ).toBe(400);
    expect((await t.post('/configs/n/restore', {})).status).toBe(400);
  });
});

describe('GET /history', () => {
  it('records the origin of every kind of write: its op and request id', async () => {
    const t = createTestApp();
    const id = (value: string) => ({ 'X-Request-Id': value });
    expect((await t.put('w', v1, id('r-put'))).status).toBe(204);
    const patched = await t.request('/configs/w', {
      method: 'PATCH',
      headers: {
        'Content-Type': 'application/merge-patch+json',
        ...id('r-patch'),
      },
      body: JSON.stringify({ settings: { theme: 'light' } }),
    });
    expect(patched.status).toBe(204);
    expect(
      (await t.post('/configs/w/restore', { rev: 1 }, id('r-restore'))).status,
    ).toBe(200);
    const removed = await t.request('/configs/w', {
      method: 'DELETE',
      headers: id('r-delete'),
    });
    expect(removed.status).toBe(204);
    const { body } = await t.json<{
      entries: { op: string; requestId: string | null; by: unknown }[];
    }>('/history?config=w');
    expect(body.entries.map((e) => [e.op, e.requestId, e.by])).toEqual([
      ['put', 'r-put', null],
      ['patch', 'r-patch', null],
      ['restore', 'r-restore', null],
      ['delete', 'r-delete', null],
    ]);
  });

  it('lists every revision oldest first by change id, with the request id', async () => {
    const t = await withHistory();
    await t.put('other', v2);
    const { status, body } = await t.json<{
      entries: {
        id: number;
        name: string;
        rev: number;
        op: string;
        requestId: string | null;
      }[];
      next: number | null;
    }>('/history');
    expect(status).toBe(200);
    expect(body.entries.map((e) => [e.name, e.rev, e.op])).toEqual([
      ['n', 1, 'put'],
      ['n', 2, 'put'],
      ['n', 3, 'delete'],
      ['n', 4, 'put'],
      ['other', 1, 'put'],
    ]);
    expect(body.entries[0]?.requestId).toBe('req-1');
    expect(typeof body.entries[1]?.requestId).toBe('string');
    const ids = body.entries.map((e) => e.id);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    expect(body.next).toBeNull();
    const page = await t.json<typeof body>(`/history?since=${ids[1]}&limit=2`);
    expect(page.body.entries.map((e) => e.id)).toEqual(ids.slice(2, 4));
    expect(page.body.next).toBe(ids[3]);
    const only = await t.json<typeof body>('/history?config=other');
    expect(only.body.entries.map((e) => e.name)).toEqual(['other']);
    expect((await t.request('/history?since=-1')).status).toBe(400);
  });
});

describe('history access', () => {
  it('reads need read access and restores need write access, like the config routes', async () => {
    const t = createTestApp({
      auth: { apiToken: 'write-secret', readToken: 'read-secret' },
    });
    const write = { Authorization: 'Bearer write-secret' };
    const read = { Authorization: 'Bearer read-secret' };
    expect((await t.put('n', v1, write)).status).toBe(204);
    for (const path of [
      '/configs/n/history',
      '/configs/n/revisions/1',
      '/configs/n/diff?from=1',
      '/history',
      '/configs?deleted=true',
    ]) {
      expect([path, (await t.request(path)).status]).toEqual([path, 401]);
      expect([path, (await t.request(path, { headers: read })).status]).toEqual(
        [path, 200],
      );
    }
    expect((await t.post('/configs/n/restore', { rev: 1 })).status).toBe(401);
    expect((await t.post('/configs/n/restore', { rev: 1 }, read)).status).toBe(
      403,
    );
    expect((await t.post('/configs/n/restore', { rev: 1 }, write)).status).toBe(
      200,
    );
  });

  it('documents every history route in the OpenAPI document', async () => {
    const t = createTestApp();
    const { body } = await t.json<{
      paths: Record<string, Record<string, unknown>>;
    }>('/openapi.json');
    expect(body.paths['/configs/{name}/history']?.['get']).toBeDefined();
    expect(
      body.paths['/configs/{name}/revisions/{rev}']?.['get'],
    ).toBeDefined();
    expect(body.paths['/configs/{name}/diff']?.['get']).toBeDefined();
    expect(body.paths['/configs/{name}/restore']?.['post']).toBeDefined();
    expect(body.paths['/history']?.['get']).toBeDefined();
  });
});
