/**
 * `POST /configs/:name/tags/rename` over REST and tRPC, on both real databases: the preview, one
 * revision per rename, `If-Match`, a merge that says so, keys outside their patterns, and refusals that
 * store nothing.
 */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { TagRenameResult } from '@linkconfig/shared';
import { createContextInner } from '../src/context.js';
import { appRouter } from '../src/routers/app-router.js';
import { createCallerFactory } from '../src/trpc.js';
import { createTestApp } from './test-app.js';
import type { TestApp } from './test-app.js';
import { postgresDatabases, sqliteDatabases } from './test-databases.js';

const databases = [sqliteDatabases(), postgresDatabases()];
afterAll(async () => {
  for (const db of databases) await db.cleanup();
});

const original = () => ({
  allLinks: {
    a: { url: 'https://a.example', tags: ['nyc', 'bridge'] },
    b: { url: 'https://b.example', tags: ['NYC'] },
    c: { url: 'https://c.example', tags: ['newyork'] },
    d: { url: 'https://d.example', tags: ['sf'] },
  },
  macros: {
    city: { linkItems: '.nyc' },
    crossing: { linkItems: '(.nyc + .bridge) | -.sf' },
  },
  settings: { menu: '.nyc *sort*' },
});

describe.each(databases)('POST /configs/:name/tags/rename on $kind', (db) => {
  let t: TestApp;
  beforeEach(async () => {
    t = createTestApp({ repository: await db.create() });
    // Stored through the service, so no request has asked for keys yet (a test below makes some).
    await t.services.configs.put('site-a/n', original());
    return () => t.repository.close();
  });

  const rename = (
    body: unknown,
    headers: Record<string, string> = {},
    name = 'site-a/n',
  ) =>
    t.post(`/configs/${encodeURIComponent(name)}/tags/rename`, body, headers);
  const stored = async () =>
    (await t.json<{ config: Record<string, unknown> }>('/configs/site-a%2Fn'))
      .body.config;
  const etag = async () =>
    (await t.request('/configs/site-a%2Fn')).headers.get('etag');
  const revisions = async () =>
    (await t.json<{ revisions: unknown[] }>('/configs/site-a%2Fn/history')).body
      .revisions.length;

  it('answers the preview of a dry run and stores nothing', async () => {
    const before = await etag();
    const response = await rename({ from: 'nyc', to: 'gotham', dryRun: true });
    expect(response.status).toBe(200);
    const body = (await response.json()) as TagRenameResult;
    expect(body.stored).toBe(false);
    expect(body.preview.links).toEqual(['a']);
    expect(body.preview.mergesIntoExisting).toBe(false);
    expect(body.preview.expressions.map((e) => e.where)).toEqual([
      'macros.city',
      'macros.crossing',
      'settings.menu',
    ]);
    expect(body.preview.macros.find((m) => m.name === 'city')).toMatchObject({
      before: ['a'],
      after: ['a'],
      flagged: false,
    });
    expect(response.headers.get('etag')).toBeNull();
    expect(await etag()).toBe(before);
  });

  it('stores a rename as one revision, with the new ETag, links and expressions rewritten', async () => {
    const count = await revisions();
    const response = await rename({ from: 'nyc', to: 'gotham' });
    expect(response.status).toBe(200);
    const body = (await response.json()) as TagRenameResult;
    expect(body.stored).toBe(true);
    expect(response.headers.get('etag')).toBe(body.etag);
    expect(await etag()).toBe(body.etag);
    expect(await revisions()).toBe(count + 1);
    const config = await stored();
    expect(config['allLinks']).toMatchObject({
      a: { tags: ['gotham', 'bridge'] },
    });
    expect(config['macros']).toEqual({
      city: { linkItems: '.gotham' },
      crossing: { linkItems: '(.gotham + .bridge) | -.sf' },
    });
    expect(config['settings']).toEqual({ menu: '.gotham *sort*' });
  });

  it('merges several tags into an existing one and says so', async () => {
    const response = await rename({ from: ['NYC', 'newyork'], to: 'nyc' });
    const body = (await response.json()) as TagRenameResult;
    expect(body.preview.mergesIntoExisting).toBe(true);
    expect(body.preview.notes.join(' ')).toContain(
      '"nyc" is already a tag: this merges into it',
    );
    expect(body.preview.macros.find((m) => m.name === 'city')).toMatchObject({
      before: ['a'],
      after: ['a', 'b', 'c'],
      flagged: false,
    });
    const links = (await stored())['allLinks'] as Record<
      string,
      { tags: string[] }
    >;
    expect([links['b']?.tags, links['c']?.tags]).toEqual([['nyc'], ['nyc']]);
  });

  it('refuses a stale If-Match with 412 and stores nothing', async () => {
    const old = await etag();
    await t.put('site-a/n', { ...original(), settings: {} });
    const current = await etag();
    const response = await rename(
      { from: 'nyc', to: 'gotham' },
      { 'If-Match': old ?? '' },
    );
    expect(response.status).toBe(412);
    expect(await response.json()).toEqual({
      error: expect.stringContaining('has changed'),
    });
    expect(await etag()).toBe(current);
    const fresh = await rename(
      { from: 'nyc', to: 'gotham' },
      { 'If-Match': current ?? '' },
    );
    expect(fresh.status).toBe(200);
  });

  it('refuses a write key outside its patterns with 403, telling nothing', async () => {
    await t.services.keys.create({
      label: 'admin',
      scope: 'admin',
      configs: ['*'],
    });
    const other = await t.services.keys.create({
      label: 'other',
      scope: 'write',
      configs: ['site-b/*'],
    });
    const mine = await t.services.keys.create({
      label: 'mine',
      scope: 'write',
      configs: ['site-a/*'],
    });
    const before = await etag();
    const refused = await rename(
      { from: 'nyc', to: 'gotham' },
      { Authorization: `Bearer ${other.secret}` },
    );
    expect(refused.status).toBe(403);
    const text = await refused.text();
    expect(text).not.toContain('nyc');
    const allowed = await rename(
      { from: 'nyc', to: 'gotham', dryRun: true },
      { Authorization: `Bearer ${mine.secret}` },
    );
    expect(allowed.status).toBe(200);
    expect(
      (
        await t.json('/configs/site-a%2Fn', {
          headers: { Authorization: `Bearer ${mine.secret}` },
        })
      ).status,
    ).toBe(200);
    expect(before).not.toBeNull();
  });

  it('refuses a `to` that no expression could name, and a missing config', async () => {
    const bad = await rename({ from: 'nyc', to: 'new york' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: expect.stringContaining('to') });
    const missing = await rename({ from: 'nyc', to: 'x' }, {}, 'site-a/none');
    expect(missing.status).toBe(404);
  });

  it('is the same procedure over tRPC', async () => {
    const api = createCallerFactory(appRouter)(createContextInner(t.services));
    const result = await api.tags.rename({
      name: 'site-a/n',
      from: ['nyc'],
      to: 'gotham',
    });
    expect(result.stored).toBe(true);
    expect(result.rev).toBeGreaterThan(1);
  });
});
