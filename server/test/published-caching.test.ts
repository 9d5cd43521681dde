import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { Outbound, OutboundAllowList } from '../src/outbound/index.js';
import { configTag, purgeOnPublish } from '../src/services/purge.js';
import { createMemoryConfigRepository } from '../src/storage/memory/memory-config-repository.js';
import { createServices } from '../src/services/services.js';
import { createTestApp } from './test-app.js';

const config = { allLinks: { a: { label: 'A', url: 'https://a.example/' } } };

describe('cache headers of /published', () => {
  it('public: shared caches may keep answers, strong ETag, 304, exact Vary, surrogate keys', async () => {
    const t = createTestApp();
    await t.put('site/menu', config);
    await t.services.publish.publish('site/menu', {});
    const got = await t.request('/published/configs/site%2Fmenu');
    expect(got.status).toBe(200);
    expect(got.headers.get('cache-control')).toBe(
      'public, max-age=60, s-maxage=300, stale-while-revalidate=60, stale-if-error=86400',
    );
    expect(got.headers.get('vary')).toBe('Accept-Encoding, Origin');
    expect(got.headers.get('surrogate-key')).toBe(
      'published published:site%2Fmenu',
    );
    expect(got.headers.get('cache-tag')).toBe(
      'published,published:site%2Fmenu',
    );
    const etag = got.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await t.request('/published/configs/site%2Fmenu', {
      headers: { 'If-None-Match': etag },
    });
    expect(again.status).toBe(304);
    // Lists carry a strong ETag of their bytes too.
    const list = await t.request('/published/configs');
    const listTag = list.headers.get('etag') ?? '';
    expect(list.headers.get('cache-control')).toMatch(/^public, /);
    expect(list.headers.get('surrogate-key')).toBe('published published-lists');
    expect(
      (
        await t.request('/published/configs', {
          headers: { 'If-None-Match': listTag },
        })
      ).status,
    ).toBe(304);
    // The drafts' routes keep revalidating every time.
    expect(
      (await t.request('/configs/site%2Fmenu')).headers.get('cache-control'),
    ).toBe('no-cache');
  });

  it('key: private, varying by Authorization', async () => {
    const t = createTestApp({ publishedRead: 'key' });
    await t.put('m', config);
    await t.services.publish.publish('m', {});
    const got = await t.request('/published/configs/m');
    expect(got.headers.get('cache-control')).toBe('private, max-age=60');
    expect(got.headers.get('vary')).toBe(
      'Accept-Encoding, Authorization, Origin',
    );
  });
});

describe('tags', () => {
  it("a config's tag holds only letters, digits, '-', '_', '%' and its prefix", () => {
    expect(configTag("a.b(c)*!'~ d/é")).toBe(
      'published:a%2Eb%28c%29%2A%21%27%7E%20d%2F%C3%A9',
    );
    expect(configTag('site-a/menu_1')).toBe('published:site-a%2Fmenu_1');
  });
});

describe('purges on publish (PURGE_URLS)', () => {
  it('sends PURGE of the published URL with its surrogate keys, through the outbound module', async () => {
    const seen: { method: string; url: string; keys: string }[] = [];
    const server = createServer((req, res) => {
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        keys: String(req.headers['surrogate-key']),
      });
      res.end('purged');
    });
    await new Promise<void>((resolve) =>
      server.listen(0, '127.0.0.1', resolve),
    );
    const { port } = server.address() as AddressInfo;
    const outbound = new Outbound({
      userAgent: 'test',
      allow: new OutboundAllowList([`127.0.0.1:${port}`]),
    });
    const repository = createMemoryConfigRepository();
    const services = createServices({
      repository,
      outbound,
      onPublishEvent: purgeOnPublish({
        urls: [`http://127.0.0.1:${port}`],
        method: 'PURGE',
        outbound,
      }),
    });
    await services.configs.put('site/menu', config);
    await services.publish.publish('site/menu', {});
    await services.publish.unpublish('site/menu');
    await expect.poll(() => seen.length).toBe(2);
    expect(seen[0]).toEqual({
      method: 'PURGE',
      url: '/published/configs/site%2Fmenu',
      keys: 'published-lists published:site%2Fmenu',
    });
    await outbound.close();
    await new Promise((resolve) => server.close(resolve));
  });
});
