import { describe, expect, it } from 'vitest';
import { createTestApp } from './test-app.js';

const errorOf = async (response: Response): Promise<string> => {
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = (await response.json()) as { error?: unknown };
  expect(Object.keys(body)).toEqual(['error']);
  expect(typeof body.error).toBe('string');
  return body.error as string;
};

describe('errors are JSON { error } with the right status', () => {
  it('404 for unknown routes', async () => {
    const t = createTestApp();
    const response = await t.request('/nope');
    expect(response.status).toBe(404);
    expect(await errorOf(response)).toBe('no route for GET /nope');
  });

  it.each([
    ['POST', '/configs', 'GET'],
    ['POST', '/configs/x', 'GET, PUT, PATCH, DELETE'],
    ['PATCH', '/configs', 'GET'],
    ['POST', '/search', 'GET'],
    ['GET', '/query', 'POST'],
    ['PUT', '/cherry-pick', 'POST'],
  ])('405 for %s %s, with Allow', async (method, path, allow) => {
    const t = createTestApp();
    const response = await t.request(path, {
      method,
      body: method === 'GET' ? null : '{}',
    });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe(allow);
    expect(await errorOf(response)).toMatch(/method not allowed/);
  });

  it('400 for malformed JSON, an empty body, or a non-object body', async () => {
    const t = createTestApp();
    expect(await errorOf(await t.post('/query', '{"expression":'))).toMatch(
      /not valid JSON/,
    );
    expect(await errorOf(await t.post('/query', ''))).toMatch(/empty/);
    expect(await errorOf(await t.post('/query', '[1]'))).toMatch(/JSON object/);
    expect(await errorOf(await t.put('n', '{"allLinks":{},}'))).toMatch(
      /not valid JSON/,
    );
  });

  it('400 for a body that is not UTF-8', async () => {
    const t = createTestApp();
    const response = await t.request('/configs/n', {
      method: 'PUT',
      body: new Uint8Array([0x7b, 0xff, 0x7d]),
    });
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatch(/UTF-8/);
  });

  it('415 for a non-JSON content type on POST', async () => {
    const t = createTestApp();
    const response = await t.request('/query', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'expression=a',
    });
    expect(response.status).toBe(415);
    await errorOf(response);
  });

  it('500 says nothing internal', async () => {
    const t = createTestApp();
    await t.repository.close();
    const response = await t.request('/configs');
    expect(response.status).toBe(500);
    const error = await errorOf(response);
    expect(error).toMatch(/internal server error/);
    expect(error).not.toMatch(/closed/);
  });
});

describe('hostile input gets a 4xx in bounded time and stores nothing', () => {
  it('refuses bodies over the limit with 413, declared or streamed', async () => {
    const t = createTestApp({ bodyLimit: 1024 });
    const big = JSON.stringify({ allLinks: { a: { url: 'x'.repeat(2000) } } });
    const declared = await t.put('n', big);
    expect(declared.status).toBe(413);
    expect(await errorOf(declared)).toMatch(
      /larger than the limit of 1024 bytes/,
    );
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 10; i++)
          controller.enqueue(new TextEncoder().encode('x'.repeat(500)));
        controller.close();
      },
    });
    const streamed = await t.request('/configs/n', {
      method: 'PUT',
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(await t.repository.count()).toBe(0);
  });

  it('refuses a 50 MB body with the default limit', async () => {
    const t = createTestApp();
    const body = `{"allLinks":{"a":{"url":"${'x'.repeat(50 * 1024 * 1024)}"}}}`;
    const response = await t.put('n', body);
    expect(response.status).toBe(413);
    expect(await t.repository.count()).toBe(0);
  });

  it('refuses 10k-deep nesting', async () => {
    const t = createTestApp();
    const deep = `{"allLinks":{},"x":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
    const response = await t.put('n', deep);
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatch(/nested deeper than 256/);
    const query = await t.post(
      '/query',
      `{"expression":"a","configs":[${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}]}`,
    );
    expect(query.status).toBe(400);
    expect(await t.repository.count()).toBe(0);
  });

  it.each([
    [
      '/query',
      '{"expression":"a","configs":[{"allLinks":{},"__proto__":{"polluted":1}}]}',
    ],
    [
      '/cherry-pick',
      '{"expression":"a","source":{"allLinks":{"a":{"url":"x","constructor":{"prototype":{"polluted":1}}}}}}',
    ],
    [
      '/query',
      '{"expression":"a","configs":[{"allLinks":{},"constructor":{"prototype":{"polluted":1}}}]}',
    ],
  ])('refuses pollution shapes in %s bodies', async (path, body) => {
    const t = createTestApp();
    const response = await t.post(path, body);
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatch(/__proto__/);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it.each([
    '{"allLinks":{},"constructor":{"prototype":{"polluted":1}}}',
    '{"allLinks":{"a":{"url":"x","meta":{"constructor":{"prototype":{}}}}}}',
    '{"__proto__":{"polluted":1},"allLinks":{}}',
    '{"allLinks":{"a":{"url":"x","meta":{"__proto__":{"polluted":1}}}}}',
    '{"allLinks":{"\\u005f_proto__":{"url":"x"}}}',
  ])('refuses __proto__ keys anywhere: %s', async (body) => {
    const t = createTestApp();
    const response = await t.put('n', body);
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatch(/__proto__/);
    expect(await t.repository.count()).toBe(0);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('stores constructor and prototype keys as plain data', async () => {
    const t = createTestApp();
    const body = {
      allLinks: { constructor: { url: 'x' }, prototype: { url: 'y' } },
    };
    expect((await t.put('n', body)).status).toBe(204);
    const { body: got } = await t.json<{ config: unknown }>('/configs/n');
    expect(got.config).toEqual(body);
    const query = await t.post('/query', {
      expression: 'constructor, prototype',
      configName: 'n',
    });
    expect(await query.json()).toEqual({ results: [] });
  });

  it('answers hostile expressions without failing', async () => {
    const t = createTestApp();
    await t.put('demo', {
      allLinks: { a: { url: 'x', tags: ['t'] } },
      macros: { f: { linkItems: '@f | @f | @f | @f | @f | @f' } },
      searchPatterns: { r: '(x|x)*y' },
    });
    for (const expression of [
      '@f',
      '('.repeat(5000),
      '/constructor/',
      '/r/',
      ':time:',
      '*sort:__proto__*',
      '.t'.repeat(3000),
    ]) {
      const response = await t.post('/query', { expression });
      expect(response.status).toBe(200);
      expect(
        Array.isArray(
          ((await response.json()) as { results: unknown }).results,
        ),
      ).toBe(true);
    }
  });
});
