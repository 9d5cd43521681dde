/** Regressions for problems a review of the server found (each test failed before its fix). */
import { describe, expect, it } from 'vitest';
import { createTestApp, utf8 } from './test-app.js';

describe('review fixes', () => {
  it('lists names in code-point order, not UTF-16 code-unit order', async () => {
    const t = createTestApp();
    for (const name of ['\uff61', '\u{1F600}', '\u20ac'])
      await t.put(name, { allLinks: {} });
    expect((await t.json('/configs')).body).toEqual([
      '\u20ac',
      '\uff61',
      '\u{1F600}',
    ]);
  });

  it('refuses names with lone surrogates', async () => {
    const t = createTestApp();
    const response = await t.request('/trpc/configs.put', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'lone\ud800x', config: { allLinks: {} } }),
    });
    expect(response.status).toBe(400);
    expect(await t.repository.count()).toBe(0);
  });

  it('clamps a huge numeric limit to 1000 instead of refusing it', async () => {
    const t = createTestApp();
    await t.put('c', { allLinks: { a: { url: 'x', tags: ['t'] } } });
    expect(
      (await t.request('/search?tag=t&limit=99999999999999999999')).status,
    ).toBe(200);
  });

  it('takes the name from the raw path segment, however the prefix was encoded', async () => {
    const t = createTestApp();
    expect(
      (
        await t.request('/config%73/victim', {
          method: 'PUT',
          body: utf8('{"allLinks":{}}'),
        })
      ).status,
    ).toBe(204);
    expect((await t.json('/configs')).body).toEqual(['victim']);
  });

  it('checks authorization before reading the body', async () => {
    const t = createTestApp({ auth: { apiToken: 'w' } });
    expect((await t.put('n', '{not json')).status).toBe(401);
    expect(
      (
        await t.request('/configs/n', {
          method: 'PUT',
          headers: { 'Content-Type': 'text/plain' },
          body: 'x',
        })
      ).status,
    ).toBe(401);
  });

  it('does not serve a cached result of a search pattern with an age option after time moved', async () => {
    const t = createTestApp();
    t.setNow('2026-03-01T00:00:00.000Z');
    await t.put('demo', {
      allLinks: {
        a: {
          url: 'https://a',
          label: 'alpha',
          createdAt: '2026-02-28T12:00:00.000Z',
        },
      },
      searchPatterns: { recent: { pattern: 'alpha', options: { age: '1d' } } },
    });
    const ids = async () =>
      (
        (await (await t.post('/query', { expression: '/recent/' })).json()) as {
          results: { id: string }[];
        }
      ).results.map((r) => r.id);
    expect(await ids()).toEqual(['a']);
    t.setNow('2026-03-05T00:00:00.000Z');
    expect(await ids()).toEqual([]);
  });

  it('checks authorization on every request, also when the response is cached', async () => {
    const t = createTestApp({ auth: { apiToken: 'w', readToken: 'r' } });
    await t.services.configs.put('n', { allLinks: {} });
    const auth = { Authorization: 'Bearer r' };
    for (const path of ['/configs', '/configs/n', '/search?q=a']) {
      expect((await t.request(path, { headers: auth })).status).toBe(200);
      expect((await t.request(path)).status).toBe(401);
    }
    expect(
      (await t.post('/query', { expression: 'a', configName: 'n' }, auth))
        .status,
    ).toBe(200);
    expect(
      (await t.post('/query', { expression: 'a', configName: 'n' })).status,
    ).toBe(401);
  });

  it('never answers a clock-dependent expression from a cache', async () => {
    const t = createTestApp();
    t.setNow('2026-03-01T00:00:00.000Z');
    await t.put('demo', {
      allLinks: {
        a: { url: 'https://a', createdAt: '2026-02-28T12:00:00.000Z' },
      },
    });
    const ids = async () =>
      (
        (await (
          await t.post('/query', { expression: ':time:1d:' })
        ).json()) as { results: { id: string }[] }
      ).results.map((r) => r.id);
    expect(await ids()).toEqual(['a']);
    t.setNow('2026-03-05T00:00:00.000Z');
    expect(await ids()).toEqual([]);
  });
});
