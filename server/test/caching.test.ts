import { describe, expect, it } from 'vitest';
import { createTestApp } from './test-app.js';
import type { TestApp } from './test-app.js';

/** One link per tag, dated relative to the test clock (2026-03-01T10:00Z). */
function datedConfig(): Record<string, unknown> {
  return {
    allLinks: {
      fresh: {
        url: 'https://fresh.example',
        tags: ['t'],
        createdAt: '2026-03-01T09:30:00.000Z',
      },
      old: {
        url: 'https://old.example',
        tags: ['t'],
        createdAt: '2026-02-01T00:00:00.000Z',
      },
      c: { url: 'https://c.example', tags: ['t'] },
      d: { url: 'https://d.example', tags: ['t'] },
    },
  };
}

const responses = (t: TestApp) => t.services.caches.responses.stats();

async function rawPost(t: TestApp, path: string, text: string) {
  const response = await t.request(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: text,
  });
  return (await response.json()) as { results: { id: string }[] };
}

describe('reuse of answers', () => {
  it('keeps an answer from its second request on and serves the third from the cache', async () => {
    const t = createTestApp();
    await t.put('demo', datedConfig());
    for (let i = 0; i < 3; i++) {
      expect((await t.json('/search?tag=t')).status).toBe(200);
    }
    expect(responses(t)).toMatchObject({ entries: 1, hits: 1 });
  });

  it('stores nothing for a stream of distinct requests', async () => {
    const t = createTestApp();
    await t.put('demo', datedConfig());
    for (let i = 0; i < 200; i++) await t.json(`/search?q=x${i}`);
    expect(responses(t)).toMatchObject({ entries: 0, bytes: 0 });
  });

  it('answers from the new state after a write, even for a cached request', async () => {
    const t = createTestApp();
    await t.put('demo', datedConfig());
    for (let i = 0; i < 3; i++) await t.json('/search?tag=t');
    await t.put('demo', { allLinks: { z: { url: 'https://z', tags: ['t'] } } });
    const { body } = await t.json<{ results: { id: string }[] }>(
      '/search?tag=t',
    );
    expect(body.results.map((r) => r.id)).toEqual(['z']);
  });

  it('never reuses a :time: answer past its window, however the expression is escaped', async () => {
    const t = createTestApp();
    await t.put('demo', datedConfig());
    // `:ti\u006de:1h:` is `:time:1h:` once parsed: the raw text does not say "time".
    const body = '{"expression":":ti\\u006de:1h:"}';
    for (let i = 0; i < 3; i++) {
      expect(
        (await rawPost(t, '/query', body)).results.map((r) => r.id),
      ).toEqual(['fresh']);
    }
    t.setNow('2026-03-01T10:45:00.000Z');
    expect((await rawPost(t, '/query', body)).results).toEqual([]);
  });

  it('never keeps a shuffled answer, however the expression is escaped', async () => {
    const t = createTestApp();
    await t.put('demo', datedConfig());
    const body = '{"expression":".t *shu\\u0066fle*"}';
    for (let i = 0; i < 4; i++) await rawPost(t, '/query', body);
    expect(responses(t).entries).toBe(0);
  });

  it('keeps no answer computed from a big inline config', async () => {
    const t = createTestApp();
    const allLinks: Record<string, unknown> = {};
    for (let i = 0; i < 400; i++) {
      allLinks[`l${i}`] = { url: `https://l${i}.example`, tags: ['t'] };
    }
    const held = () =>
      t.services.caches.stats().map((c) => [c.name, c.entries, c.bytes]);
    const before = held();
    for (let i = 0; i < 3; i++) {
      const response = await t.post('/query', {
        expression: '.t',
        configs: [{ allLinks }],
      });
      expect(response.status).toBe(200);
    }
    expect(held()).toEqual(before);
  });
});

describe('POST /query with a name listed twice', () => {
  it('merges every occurrence in order, so the last one wins', async () => {
    const t = createTestApp();
    await t.put('a', {
      allLinks: { x: { url: 'https://from-a', tags: ['t'] } },
    });
    await t.put('b', {
      allLinks: { x: { url: 'https://from-b', tags: ['t'] } },
    });
    const { body } = await t.json<{ results: { url: string }[] }>('/query', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ expression: 'x', configs: ['a', 'b', 'a'] }),
    });
    expect(body.results.map((r) => r.url)).toEqual(['https://from-a']);
  });
});

describe('meta values whose key ends in "url"', () => {
  const config = {
    allLinks: {
      a: {
        url: 'https://a.example',
        tags: ['t'],
        meta: {
          homeUrl: 'javascript:alert(1)',
          imageURL: 'data:x',
          note: 'javascript:kept',
        },
      },
    },
  };

  it('come back sanitized from GET /configs/:name and /search, like from /query', async () => {
    const t = createTestApp();
    await t.put('m', config);
    const expected = {
      homeUrl: 'about:blank',
      imageURL: 'about:blank',
      note: 'javascript:kept',
    };
    const entry = await t.json<{
      config: { allLinks: { a: { meta: unknown } } };
    }>('/configs/m');
    expect(entry.body.config.allLinks.a.meta).toEqual(expected);
    const search = await t.json<{ results: { link: { meta: unknown } }[] }>(
      '/search?tag=t',
    );
    expect(search.body.results[0]?.link.meta).toEqual(expected);
    const query = await t.json<{ results: { meta: unknown }[] }>('/query', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ expression: 'a', configName: 'm' }),
    });
    expect(query.body.results[0]?.meta).toEqual(expected);
  });
});

describe('the version cache', () => {
  it('stays within its share of CACHE_BYTES however many configs are read', async () => {
    const t = createTestApp({ cacheBytes: 4 * 1024 * 1024 });
    const allLinks: Record<string, unknown> = {};
    for (let i = 0; i < 300; i++) {
      allLinks[`l${i}`] = {
        url: `https://l${i}.example/some/path`,
        label: `Label number ${i}`,
        tags: ['t', `u${i % 7}`],
      };
    }
    for (let n = 0; n < 40; n++) {
      await t.put(`c${n}`, { allLinks });
      await t.json(`/configs/c${n}`);
      await t.json(`/search?q=label&config=^c${n}$`);
      await t.post('/query', { expression: '.u3', configName: `c${n}` });
    }
    const versions = t.services.caches.versions.stats();
    expect(versions.evictions).toBeGreaterThan(0);
    expect(versions.bytes).toBeLessThanOrEqual(versions.budget);
  });
});
