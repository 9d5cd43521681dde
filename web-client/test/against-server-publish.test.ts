/**
 * The remote store's publishing calls against the real server (SQLite file, real HTTP): publish the
 * head under `If-Match`, read it back through `/published` with an unchanged remote store, roll back,
 * unpublish, and a write key refused.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '@linkconfig/server';
import type { RunningServer } from '@linkconfig/server';
import { createRemoteStore, RemoteStoreError } from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'linkconfig-publish-'));
let server: RunningServer;

beforeAll(async () => {
  server = await startServer({
    port: 0,
    host: '127.0.0.1',
    databaseUrl: `sqlite:${join(dir, 'db.sqlite')}`,
    seed: 'none',
    apiToken: 'secret',
    logger: pino({ level: 'silent' }),
  });
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const menu = (url: string) => ({
  allLinks: { a: { url, tags: ['nyc'] } },
});

describe('publishing through the remote store', () => {
  it('publishes the reviewed draft, serves it under /published, rolls back and unpublishes', async () => {
    const store = createRemoteStore({ baseUrl: server.url, token: 'secret' });
    const site = createRemoteStore({ baseUrl: `${server.url}/published` });
    const first = await store.saveVersioned('site/menu', menu('https://one'));
    expect(await store.publishStatus('site/menu')).toBeNull();

    const record = await store.publish('site/menu', {
      ifMatch: first.etag ?? '',
      origins: ['https://site.example'],
    });
    expect(record).toMatchObject({
      name: 'site/menu',
      rev: 1,
      origins: ['https://site.example'],
      hideBroken: false,
    });
    expect(await store.publishStatus('site/menu')).toEqual(record);
    expect(await site.load('site/menu')).toEqual(menu('https://one'));

    // A new draft: the site keeps the published version; a publish over a stale ETag is refused.
    const second = await store.saveVersioned('site/menu', menu('https://two'));
    expect(await site.load('site/menu')).toEqual(menu('https://one'));
    const stale = await store
      .publish('site/menu', { ifMatch: first.etag ?? '' })
      .catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(RemoteStoreError);
    expect((stale as RemoteStoreError).kind).toBe('conflict');
    expect((stale as RemoteStoreError).etag).toBe(second.etag);

    const again = await store.publish('site/menu', {
      ifMatch: second.etag ?? '',
      hideBroken: true,
    });
    // Origins absent: the record's are kept.
    expect(again).toMatchObject({
      rev: 2,
      origins: ['https://site.example'],
      hideBroken: true,
    });
    expect(await site.load('site/menu')).toEqual(menu('https://two'));

    const rollback = await store.publish('site/menu', {
      rev: 1,
      origins: null,
    });
    expect(rollback).toMatchObject({ rev: 1, origins: null });
    expect(await site.load('site/menu')).toEqual(menu('https://one'));

    expect(await store.unpublish('site/menu')).toEqual({
      name: 'site/menu',
      rev: 1,
    });
    expect(await store.unpublish('site/menu')).toEqual({
      name: 'site/menu',
      rev: null,
    });
    expect(await store.publishStatus('site/menu')).toBeNull();
    expect(await site.load('site/menu')).toBeNull();
    // The draft stays.
    expect(await store.load('site/menu')).toEqual(menu('https://two'));
  });

  it('refuses a write key (403) and a revision that does not exist (404)', async () => {
    const admin = createRemoteStore({ baseUrl: server.url, token: 'secret' });
    await admin.save('w/menu', menu('https://w'));
    const created = await fetch(`${server.url}/keys`, {
      method: 'POST',
      headers: {
        Authorization: 'Bearer secret',
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ label: 'editor', scope: 'write', configs: ['*'] }),
    });
    const { secret } = (await created.json()) as { secret: string };
    const editor = createRemoteStore({ baseUrl: server.url, token: secret });
    const refused = await editor.publish('w/menu').catch((e: unknown) => e);
    expect((refused as RemoteStoreError).status).toBe(403);
    expect(await editor.publishStatus('w/menu')).toBeNull();
    const missing = await admin
      .publish('w/menu', { rev: 9 })
      .catch((e: unknown) => e);
    expect((missing as RemoteStoreError).status).toBe(404);
    expect((missing as RemoteStoreError).message).toMatch(/no revision 9/);
  });
});
