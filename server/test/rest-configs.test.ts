import { describe, expect, it } from 'vitest';
import { createTestApp, sampleConfig, utf8 } from './test-app.js';

describe('GET /configs', () => {
  it('lists names sorted by code point', async () => {
    const t = createTestApp();
    for (const name of ['b', 'a', 'B', 'é', '10', '9', 'a b']) {
      expect((await t.put(name, { allLinks: {} })).status).toBe(204);
    }
    const { status, body } = await t.json('/configs');
    expect(status).toBe(200);
    expect(body).toEqual(['10', '9', 'B', 'a', 'a b', 'b', 'é']);
  });
});

describe('PUT and GET /configs/:name', () => {
  it('stores the body verbatim and returns it with timestamps', async () => {
    const t = createTestApp();
    const config = {
      zeta: [3, { y: 1, b: 2 }],
      allLinks: { k: { url: 'https://k', zz: 1, label: 'K' } },
      name: 'inner',
      meta: 'odd',
      createdAt: 'not a date',
    };
    const put = await t.put('n', config);
    expect(put.status).toBe(204);
    expect(await put.text()).toBe('');
    expect(put.headers.get('content-type')).toBeNull();
    const response = await t.request('/configs/n');
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toBe(
      `{"config":${JSON.stringify(config)},"meta":{"createdAt":"2026-03-01T10:00:00.000Z","updatedAt":"2026-03-01T10:00:00.000Z"}}`,
    );
  });

  it('never lets a top-level name key collide with the path name', async () => {
    const t = createTestApp();
    await t.put('path-name', { name: 'body-name', allLinks: {} });
    expect((await t.json('/configs')).body).toEqual(['path-name']);
    const { body } = await t.json<{ config: { name: string } }>(
      '/configs/path-name',
    );
    expect(body.config.name).toBe('body-name');
  });

  it('keeps createdAt on overwrite and moves updatedAt', async () => {
    const t = createTestApp();
    await t.put('n', { allLinks: {} });
    t.setNow('2026-04-02T11:22:33.444Z');
    await t.put('n', { allLinks: { a: { url: 'u' } } });
    const { body } = await t.json<{
      meta: { createdAt: string; updatedAt: string };
      config: unknown;
    }>('/configs/n');
    expect(body.meta).toEqual({
      createdAt: '2026-03-01T10:00:00.000Z',
      updatedAt: '2026-04-02T11:22:33.444Z',
    });
    expect(body.config).toEqual({ allLinks: { a: { url: 'u' } } });
  });

  it('sanitizes url, image and thumbnail of links in the response, and nothing else', async () => {
    const t = createTestApp();
    await t.put('s', sampleConfig());
    const { body } = await t.json<{
      config: { allLinks: Record<string, Record<string, unknown>> };
    }>('/configs/s');
    const bad = body.config.allLinks['bad'];
    expect(bad).toEqual({
      label: 'Bad',
      url: 'about:blank',
      image: 'about:blank',
      thumbnail: 'about:blank',
      tags: ['x'],
      description: 'javascript:kept',
    });
    expect(Object.keys(bad ?? {})).toEqual([
      'label',
      'url',
      'image',
      'thumbnail',
      'tags',
      'description',
    ]);
    // What is stored is untouched.
    const stored = await t.repository.get('s');
    expect(stored?.json).toContain('JavaScript:alert(1)');
  });

  it('answers 404 with an error body for a missing name', async () => {
    const t = createTestApp();
    const { status, body } = await t.json('/configs/nope');
    expect(status).toBe(404);
    expect(body).toEqual({ error: 'config "nope" not found' });
  });

  it('answers ETag, and 304 for a matching If-None-Match', async () => {
    const t = createTestApp();
    await t.put('n', { allLinks: {} });
    const first = await t.request('/configs/n');
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^".+"$/);
    const again = await t.request('/configs/n', {
      headers: { 'If-None-Match': etag ?? '' },
    });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    await t.put('n', { allLinks: { a: { url: 'x' } } });
    const changed = await t.request('/configs/n', {
      headers: { 'If-None-Match': etag ?? '' },
    });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
  });
});

describe('config names in the path', () => {
  it.each([
    ['a b', 'a%20b'],
    ['café ☕', encodeURIComponent('café ☕')],
    ['a/b', 'a%2Fb'],
    ['100%', '100%25'],
    ['%2F', '%252F'],
  ])('round-trips %j', async (name, encoded) => {
    const t = createTestApp();
    const put = await t.request(`/configs/${encoded}`, {
      method: 'PUT',
      body: utf8('{"allLinks":{}}'),
    });
    expect(put.status).toBe(204);
    expect((await t.json('/configs')).body).toEqual([name]);
    expect((await t.request(`/configs/${encoded}`)).status).toBe(200);
    expect(
      (await t.request(`/configs/${encoded}`, { method: 'DELETE' })).status,
    ).toBe(204);
    expect((await t.json('/configs')).body).toEqual([]);
  });

  it.each([
    ['bad percent-encoding', '%E0%A4%A', /percent-encoding/],
    ['a lone %', 'a%', /percent-encoding/],
    ['a control character', 'a%01b', /control characters/],
    ['257 characters', 'x'.repeat(257), /at most 256/],
  ])('rejects %s with 400', async (_what, encoded, message) => {
    const t = createTestApp();
    const put = await t.request(`/configs/${encoded}`, {
      method: 'PUT',
      body: utf8('{"allLinks":{}}'),
    });
    expect(put.status).toBe(400);
    expect(((await put.json()) as { error: string }).error).toMatch(message);
    expect((await t.request(`/configs/${encoded}`)).status).toBe(400);
    expect((await t.json('/configs')).body).toEqual([]);
  });

  it.each([
    ['__proto__', '__proto__'],
    ['constructor', 'constructor'],
    ['toString', 'toString'],
    ['../', '%2e%2e%2f'],
  ])(
    'stores %j as an ordinary name, no escape or pollution',
    async (name, encoded) => {
      const t = createTestApp();
      const put = await t.request(`/configs/${encoded}`, {
        method: 'PUT',
        body: utf8('{"allLinks":{}}'),
      });
      expect(put.status).toBe(204);
      expect((await t.json('/configs')).body).toEqual([name]);
      expect(
        (await t.json<{ config: unknown }>(`/configs/${encoded}`)).body.config,
      ).toEqual({ allLinks: {} });
      expect((await t.request('/configs/other')).status).toBe(404);
      expect(({} as Record<string, unknown>)['allLinks']).toBeUndefined();
    },
  );

  it('accepts 256 characters', async () => {
    const t = createTestApp();
    expect((await t.put('y'.repeat(256), { allLinks: {} })).status).toBe(204);
  });
});

describe('PUT validation', () => {
  it.each([
    [{ allLinks: { home: { url: 5 } } }, 'allLinks.home.url must be a string'],
    [{}, /allLinks/],
    [{ allLinks: [] }, /allLinks/],
    [{ allLinks: {}, macros: { m: { linkItems: 1 } } }, /macros\.m\.linkItems/],
    [{ allLinks: {}, searchPatterns: { p: 5 } }, /searchPatterns\.p/],
    [[], /JSON object/],
    [null, /JSON object/],
    ['"text"', /JSON object/],
  ])(
    'rejects %j with a message naming the problem, storing nothing',
    async (body, message) => {
      const t = createTestApp();
      const response = await t.put('n', body === null ? 'null' : body);
      expect(response.status).toBe(400);
      const { error } = (await response.json()) as { error: string };
      expect(error).toMatch(message);
      expect(await t.repository.count()).toBe(0);
    },
  );

  it('stores the body text exactly as received', async () => {
    const t = createTestApp();
    const text =
      '{ "allLinks" : {\n  "b": {"url": "x"},  "a": {"url":"y"} }, "n": 1.50 }';
    expect((await t.put('raw', text)).status).toBe(204);
    expect((await t.repository.get('raw'))?.json).toBe(text);
  });

  it('accepts odd but valid configs unchanged', async () => {
    const t = createTestApp();
    const odd = {
      allLinks: {
        'a-b': { url: '', createdAt: 'yesterday', meta: [1] },
        '1': { url: 'x', tags: 'nope' },
      },
      macros: { 'm-1': { linkItems: '' } },
      unknown: null,
    };
    expect((await t.put('odd', odd)).status).toBe(204);
    expect((await t.repository.get('odd'))?.json).toBe(JSON.stringify(odd));
  });

  it('answers 415 for a non-JSON content type and accepts a missing one', async () => {
    const t = createTestApp();
    const wrong = await t.request('/configs/n', {
      method: 'PUT',
      headers: { 'Content-Type': 'text/plain' },
      body: '{"allLinks":{}}',
    });
    expect(wrong.status).toBe(415);
    expect(((await wrong.json()) as { error: string }).error).toMatch(
      /application\/json/,
    );
    // A Uint8Array body carries no Content-Type (a string body would get text/plain from fetch).
    const missing = await t.request('/configs/n', {
      method: 'PUT',
      body: utf8('{"allLinks":{}}'),
    });
    expect(missing.status).toBe(204);
    const charset = await t.request('/configs/m', {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
      body: '{"allLinks":{}}',
    });
    expect(charset.status).toBe(204);
  });
});

describe('DELETE /configs/:name', () => {
  it('answers 204 whether or not the name existed', async () => {
    const t = createTestApp();
    await t.put('n', { allLinks: {} });
    const first = await t.request('/configs/n', { method: 'DELETE' });
    expect(first.status).toBe(204);
    expect(await first.text()).toBe('');
    expect((await t.request('/configs/n', { method: 'DELETE' })).status).toBe(
      204,
    );
    expect((await t.request('/configs/n')).status).toBe(404);
  });
});
