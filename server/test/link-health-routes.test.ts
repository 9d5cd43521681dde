/**
 * The link-health routes over REST and tRPC: one config's links with their health, links in some states
 * across the readable configs a page at a time, a check on demand (409 while link checking is off), and
 * `GET /configs/:name?links=healthy`. The records are stored directly (no check runs, no traffic).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type {
  ConfigLinkHealthOutput,
  LinkHealthRecord,
  LinksHealthOutput,
} from '@linkconfig/shared';
import { createTestApp } from './test-app.js';
import type { TestApp } from './test-app.js';

const record = (
  url: string,
  over: Partial<LinkHealthRecord> = {},
): LinkHealthRecord => ({
  url,
  state: 'ok',
  since: '2026-01-01T00:00:00.000Z',
  checkedAt: '2026-01-02T00:00:00.000Z',
  status: 200,
  finalUrl: url,
  reason: null,
  failingSince: null,
  failures: 0,
  nextAt: 0,
  ...over,
});

// Loopback literals: a checker that runs in these tests is refused by the guard, never sends a byte.
const OK = 'http://127.0.0.1:1/ok';
const GONE = 'http://127.0.0.1:1/gone';
const MOVED = 'http://127.0.0.1:1/moved';

let t: TestApp;
afterEach(async () => {
  await t.services.linkHealth.checker.stop();
});

async function seed(options: Parameters<typeof createTestApp>[0] = {}) {
  t = createTestApp(options);
  await t.services.configs.put('site/a', {
    allLinks: {
      ok: { url: OK, label: 'fine' },
      gone: { url: `${GONE}#part`, label: 'dead' },
      moved: { url: MOVED },
      mail: { url: 'mailto:someone@example.org' },
      new: { url: 'http://127.0.0.1:1/new' },
    },
  });
  await t.services.configs.put('site/b', {
    allLinks: { again: { url: GONE } },
  });
  await t.repository.linkHealth.putAll([
    record(OK),
    record(GONE, { state: 'broken', status: 404, reason: 'HTTP 404' }),
    record(MOVED, {
      state: 'redirected',
      finalUrl: 'http://127.0.0.1:1/new-home',
      reason: 'moved permanently',
    }),
  ]);
}

describe('GET /configs/:name/links/health', () => {
  it('answers each link with its URL health; untracked and non-http links are unchecked', async () => {
    await seed();
    const { status, body } = await t.json<ConfigLinkHealthOutput>(
      `/configs/${encodeURIComponent('site/a')}/links/health`,
    );
    expect(status).toBe(200);
    expect(body.links.map((l) => [l.id, l.state])).toEqual([
      ['ok', 'ok'],
      ['gone', 'broken'],
      ['moved', 'redirected'],
      ['mail', 'unchecked'],
      ['new', 'unchecked'],
    ]);
    expect(body.links[1]).toMatchObject({
      url: GONE,
      status: 404,
      reason: 'HTTP 404',
    });
    expect(body.links[2]?.finalUrl).toBe('http://127.0.0.1:1/new-home');
    expect(body.links[3]?.reason).toBe('not an http(s) URL');
    expect(body.counts).toEqual({
      ok: 1,
      broken: 1,
      redirected: 1,
      unchecked: 2,
    });
    expect((await t.request('/configs/none/links/health')).status).toBe(404);
  });
});

describe('GET /links/health', () => {
  it('lists links that need attention across configs, a page at a time', async () => {
    await seed();
    const all = await t.json<LinksHealthOutput>('/links/health');
    expect(all.body.links.map((l) => [l.config, l.id, l.state])).toEqual([
      ['site/a', 'gone', 'broken'],
      ['site/a', 'moved', 'redirected'],
      ['site/b', 'again', 'broken'],
    ]);
    expect(all.body.next).toBeNull();
    const pages: string[][] = [];
    let after: string | null = null;
    do {
      const query: string =
        after === null ? '' : `&after=${encodeURIComponent(after)}`;
      const page = await t.json<LinksHealthOutput>(
        `/links/health?state=broken&limit=1${query}`,
      );
      pages.push(page.body.links.map((l) => `${l.config} ${l.id}`));
      after = page.body.next;
    } while (after !== null);
    expect(pages).toEqual([['site/a gone'], ['site/b again']]);
  });

  it('never shows a config the caller may not read', async () => {
    await seed({ auth: { anonymousRead: ['site/b'], apiToken: 'admin' } });
    const { body } = await t.json<LinksHealthOutput>('/links/health');
    expect(body.links.map((l) => l.config)).toEqual(['site/b']);
  });

  it('refuses an unknown state or a cursor it did not give (400)', async () => {
    await seed();
    expect((await t.request('/links/health?state=dead')).status).toBe(400);
    expect((await t.request('/links/health?after=xyz')).status).toBe(400);
    expect((await t.request('/links/health?limit=1001')).status).toBe(400);
  });
});

describe('POST /configs/:name/links/check', () => {
  it('answers 409 while link checking is off, and makes the URLs due when it is on', async () => {
    await seed();
    const path = `/configs/${encodeURIComponent('site/a')}/links/check`;
    const off = await t.request(path, { method: 'POST' });
    expect(off.status).toBe(409);
    expect(await off.json()).toEqual({
      error: expect.stringMatching(/link checking is off/) as unknown,
    });
    t.services.linkHealth.checker.start();
    const on = await t.json<{ urls: number }>(path, { method: 'POST' });
    expect(on).toEqual({ status: 200, body: { urls: 4 } });
    expect(
      (await t.request('/configs/none/links/check', { method: 'POST' })).status,
    ).toBe(404);
  });
});

describe('GET /configs/:name?links=healthy', () => {
  it('leaves out links confirmed broken; the draft keeps them', async () => {
    await seed();
    const name = encodeURIComponent('site/a');
    const healthy = await t.request(`/configs/${name}?links=healthy`);
    expect(healthy.status).toBe(200);
    expect(healthy.headers.get('etag')).toBeNull();
    const body = (await healthy.json()) as { config: { allLinks: object } };
    expect(Object.keys(body.config.allLinks)).toEqual([
      'ok',
      'moved',
      'mail',
      'new',
    ]);
    const draft = (
      await t.json<{ config: { allLinks: object } }>(`/configs/${name}`)
    ).body;
    expect(Object.keys(draft.config.allLinks)).toHaveLength(5);
    expect((await t.request(`/configs/${name}?links=some`)).status).toBe(400);
  });
});
