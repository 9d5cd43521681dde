import { describe, expect, it } from 'vitest';
import { DEMO_CONFIG } from '../src/seed/demo-config.js';
import { createTestApp } from './test-app.js';
import type { TestApp } from './test-app.js';

interface QueryBody {
  results: ({ id: string } & Record<string, unknown>)[];
}

async function withDemo(): Promise<TestApp> {
  const t = createTestApp();
  await t.put('demo', DEMO_CONFIG);
  await t.put('one', {
    allLinks: {
      p: { url: 'https://p1', tags: ['t'] },
      q: { url: 'https://q', tags: ['t'] },
    },
    macros: { all: { linkItems: '.t' } },
  });
  await t.put('two', {
    allLinks: {
      r: { url: 'https://r', tags: ['t'] },
      p: { url: 'https://p2', tags: ['t'] },
      '5': { url: 'javascript:x', tags: ['t'] },
    },
  });
  return t;
}

async function query(
  t: TestApp,
  body: unknown,
): Promise<{ status: number; body: QueryBody & { error?: string } }> {
  const response = await t.post('/query', body);
  return {
    status: response.status,
    body: (await response.json()) as QueryBody & { error?: string },
  };
}

describe('POST /cherry-pick', () => {
  it('answers the smoke test: demo .car', async () => {
    const t = await withDemo();
    const response = await t.post('/cherry-pick', {
      source: 'demo',
      expression: '.car',
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      allLinks: Record<string, { url: string }>;
    };
    expect(Object.keys(body.allLinks)).toEqual(['vwbug', 'miata', 'mustang']);
    expect(body.allLinks['miata']?.url).toBe(
      'https://en.wikipedia.org/wiki/Mazda_MX-5',
    );
  });

  it('resolves against an inline config, never storing it', async () => {
    const t = await withDemo();
    const response = await t.post('/cherry-pick', {
      source: { allLinks: { z: { url: 'vbscript:x', tags: ['k'] } } },
      expression: '.k',
    });
    expect(await response.json()).toEqual({
      allLinks: { z: { url: 'about:blank', tags: ['k'] } },
    });
    expect((await t.json('/configs')).body).toEqual(['demo', 'one', 'two']);
  });

  it.each([
    [{ source: 'nope', expression: '.x' }, 404, /config "nope" not found/],
    [{ source: 'demo' }, 400, /expression/],
    [{ source: 'demo', expression: '' }, 400, /expression must not be empty/],
    [{ source: 'demo', expression: 'a'.repeat(65_537) }, 400, /at most 65536/],
    [
      { source: { allLinks: { a: { url: 1 } } }, expression: 'a' },
      400,
      /^source\.allLinks\.a\.url must be a string$/,
    ],
    [{ source: 5, expression: 'a' }, 400, /source/],
  ])('answers %j with %i', async (body, status, message) => {
    const t = await withDemo();
    const response = await t.post('/cherry-pick', body);
    expect(response.status).toBe(status);
    expect(((await response.json()) as { error: string }).error).toMatch(
      message,
    );
  });
});

describe('POST /query', () => {
  it('defaults to the demo config', async () => {
    const t = await withDemo();
    const { status, body } = await query(t, { expression: '.car' });
    expect(status).toBe(200);
    expect(body.results.map((r) => r.id)).toEqual([
      'vwbug',
      'miata',
      'mustang',
    ]);
    expect(Object.keys(body.results[0] ?? {})).toEqual([
      'id',
      'url',
      'label',
      'tags',
      'description',
    ]);
  });

  it('uses configName, and 404 for an unknown one', async () => {
    const t = await withDemo();
    expect(
      (
        await query(t, { expression: '@all', configName: 'one' })
      ).body.results.map((r) => r.id),
    ).toEqual(['p', 'q']);
    const missing = await query(t, { expression: '.t', configName: 'zzz' });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('config "zzz" not found');
  });

  it('merges configs in order: later wins, first position kept, integer-like ids first', async () => {
    const t = await withDemo();
    const { body } = await query(t, {
      expression: '.t',
      configs: ['one', 'two'],
    });
    expect(body.results).toEqual([
      { id: '5', url: 'about:blank', tags: ['t'] },
      { id: 'p', url: 'https://p2', tags: ['t'] },
      { id: 'q', url: 'https://q', tags: ['t'] },
      { id: 'r', url: 'https://r', tags: ['t'] },
    ]);
  });

  it('prefers configs over configName, skips unknown names, de-duplicates names', async () => {
    const t = await withDemo();
    const { body } = await query(t, {
      expression: '.t',
      configName: 'demo',
      configs: ['nope', 'one', 'one'],
    });
    expect(body.results.map((r) => r.id)).toEqual(['p', 'q']);
  });

  it('answers 404 when no config of the list exists', async () => {
    const t = await withDemo();
    const { status, body } = await query(t, {
      expression: '.t',
      configs: ['x', 'y'],
    });
    expect(status).toBe(404);
    expect(body.error).toMatch(/none of the configs was found/);
  });

  it('merges inline configs with stored ones, validating them and storing nothing', async () => {
    const t = await withDemo();
    const { body } = await query(t, {
      expression: '.t',
      configs: [
        'one',
        { allLinks: { q: { url: 'https://inline', tags: ['t'] } } },
      ],
    });
    expect(body.results.map((r) => [r.id, r['url']])).toEqual([
      ['p', 'https://p1'],
      ['q', 'https://inline'],
    ]);
    const bad = await query(t, {
      expression: '.t',
      configs: [{ allLinks: { q: {} } }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(
      /^configs\.0\.allLinks\.q\.url must be a string$/,
    );
    expect((await t.json('/configs')).body).toEqual(['demo', 'one', 'two']);
  });

  it('refuses more than 50 configs and an empty list', async () => {
    const t = await withDemo();
    expect(
      (
        await query(t, {
          expression: 'a',
          configs: Array.from({ length: 51 }, () => 'one'),
        })
      ).status,
    ).toBe(400);
    expect((await query(t, { expression: 'a', configs: [] })).status).toBe(400);
  });

  it('sees a new version of a config immediately, merged or not', async () => {
    const t = await withDemo();
    await query(t, { expression: '.t', configs: ['one', 'two'] });
    await t.put('two', { allLinks: { s: { url: 'https://s', tags: ['t'] } } });
    expect(
      (
        await query(t, { expression: '.t', configs: ['one', 'two'] })
      ).body.results.map((r) => r.id),
    ).toEqual(['p', 'q', 's']);
    await t.put('one', { allLinks: {} });
    expect(
      (await query(t, { expression: '.t', configName: 'one' })).body.results,
    ).toEqual([]);
  });
});
