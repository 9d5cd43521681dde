import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  overlayConfigs,
  prepareConfig,
  resolve,
  toCherryPick,
} from '@linkconfig/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBaselineApp, sqlitePath } from './baseline-app.js';
import type { BaselineApp } from './baseline-app.js';

const a = {
  allLinks: {
    home: { url: 'https://a.example', label: 'Home Page', tags: ['x'] },
    bad: { url: 'javascript:alert(1)', label: 'Bad', tags: ['x', 'y'] },
    docs: {
      url: 'https://docs.example',
      description: 'The manual',
      tags: ['y'],
    },
  },
  macros: { both: { linkItems: '.x | .y' } },
};
const b = {
  allLinks: {
    home: { url: 'https://b.example', label: 'Other home', tags: ['y'] },
    more: { url: 'https://more.example', label: 'More', tags: ['x'] },
  },
};

describe('the baseline server', () => {
  let dir = '';
  let baseline: BaselineApp;
  const call = async (
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; json: unknown }> => {
    const init: RequestInit = { method };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      init.headers = { 'content-type': 'application/json' };
    }
    const res = await baseline.app.request(path, init);
    const text = await res.text();
    return { status: res.status, json: text === '' ? null : JSON.parse(text) };
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'baseline-test-'));
    baseline = createBaselineApp(join(dir, 'db', 'baseline.db'));
    expect((await call('PUT', '/configs/b', b)).status).toBe(204);
    expect((await call('PUT', '/configs/a', a)).status).toBe(204);
  });

  afterAll(async () => {
    baseline.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('lists names in code-point order and serves a stored config with its URLs sanitized', async () => {
    expect((await call('GET', '/configs')).json).toEqual(['a', 'b']);
    const got = (await call('GET', '/configs/a')).json as {
      config: typeof a;
      meta: { createdAt: string; updatedAt: string };
    };
    expect(got.config.allLinks.bad.url).toBe('about:blank');
    expect(got.config.allLinks.home).toEqual(a.allLinks.home);
    expect(Date.parse(got.meta.updatedAt)).not.toBeNaN();
    expect((await call('GET', '/configs/nope')).status).toBe(404);
  });

  it('refuses a config the shared rules refuse, and a body that is not JSON', async () => {
    const refused = await call('PUT', '/configs/c', { allLinks: 3 });
    expect(refused.status).toBe(400);
    expect(refused.json).toHaveProperty('error');
    expect((await call('PUT', '/configs/c', '{nope')).status).toBe(400);
  });

  it('searches tags, words in any case and regexes in the asked fields, configs in name order', async () => {
    const tag = (await call('GET', '/search?tag=x')).json as {
      results: { configName: string; id: string; link: { url: string } }[];
    };
    expect(tag.results.map((r) => `${r.configName}/${r.id}`)).toEqual([
      'a/home',
      'a/bad',
      'b/more',
    ]);
    expect(tag.results[1]?.link.url).toBe('about:blank');
    const q = (await call('GET', '/search?q=HOME&fields=label')).json as {
      results: { id: string }[];
    };
    expect(q.results.map((r) => r.id)).toEqual(['home', 'home']);
    const urlOnly = (await call('GET', '/search?q=manual&fields=url')).json as {
      results: unknown[];
    };
    expect(urlOnly.results).toEqual([]);
    const regex = (
      await call('GET', '/search?regex=^the%20man&fields=description')
    ).json as { results: { id: string }[] };
    expect(regex.results.map((r) => r.id)).toEqual(['docs']);
  });

  it('parses every config for a search that matches nothing, and stops at the limit', async () => {
    expect((await call('GET', '/search?q=zzz')).json).toEqual({
      results: [],
      configsSearched: 2,
      linksScanned: 5,
    });
    const limited = (await call('GET', '/search?tag=x&limit=1')).json as {
      results: unknown[];
      configsSearched: number;
    };
    expect(limited.results).toHaveLength(1);
    expect(limited.configsSearched).toBe(1);
    expect((await call('GET', '/search?regex=(')).status).toBe(400);
    expect((await call('GET', '/search')).status).toBe(400);
  });

  it('resolves /query with the shared engine, merging every listed config in order', async () => {
    const one = await call('POST', '/query', {
      expression: '@both',
      configName: 'a',
    });
    expect(one.json).toEqual({ results: resolve(prepareConfig(a), '@both') });
    const merged = await call('POST', '/query', {
      expression: '.x | .y',
      configs: ['a', 'b', 'nope', 'a'],
    });
    expect(merged.json).toEqual({
      results: resolve(prepareConfig(overlayConfigs([a, b, a])), '.x | .y'),
    });
    const inline = await call('POST', '/query', {
      expression: '.x',
      configs: [b],
    });
    expect(
      (inline.json as { results: { id: string }[] }).results.map((r) => r.id),
    ).toEqual(['more']);
    expect(
      (await call('POST', '/query', { expression: '.x', configName: 'nope' }))
        .status,
    ).toBe(404);
    expect((await call('POST', '/query', { expression: '' })).status).toBe(400);
    expect(
      (
        await call('POST', '/query', {
          expression: '.x',
          configs: [{ allLinks: 1 }],
        })
      ).status,
    ).toBe(400);
  });

  it('answers /cherry-pick from a stored or an inline source', async () => {
    const stored = await call('POST', '/cherry-pick', {
      source: 'a',
      expression: '.y',
    });
    expect(stored.json).toEqual({
      allLinks: toCherryPick(resolve(prepareConfig(a), '.y')),
    });
    const inline = await call('POST', '/cherry-pick', {
      source: b,
      expression: 'more',
    });
    expect(Object.keys((inline.json as { allLinks: object }).allLinks)).toEqual(
      ['more'],
    );
  });

  it('deletes, and takes its file from a sqlite: URL or a plain path', async () => {
    expect((await call('DELETE', '/configs/b')).status).toBe(204);
    expect((await call('GET', '/configs')).json).toEqual(['a']);
    expect(sqlitePath('sqlite:/tmp/x.db')).toBe('/tmp/x.db');
    expect(sqlitePath('/tmp/x.db')).toBe('/tmp/x.db');
  });
});
