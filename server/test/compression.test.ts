import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { negotiate } from '../src/http/middleware/compression.js';
import { createTestApp } from './test-app.js';

function bigConfig(): Record<string, unknown> {
  const allLinks: Record<string, unknown> = {};
  for (let i = 0; i < 200; i++) {
    allLinks[`l${i}`] = {
      url: `https://example.com/page/${i}`,
      label: `Link number ${i}`,
      tags: ['t'],
    };
  }
  return { allLinks };
}

const decode = (encoding: string | null, bytes: Buffer): string =>
  (encoding === 'br'
    ? brotliDecompressSync(bytes)
    : encoding === 'gzip'
      ? gunzipSync(bytes)
      : bytes
  ).toString('utf8');

describe('negotiate', () => {
  it.each([
    ['gzip, deflate, br', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['*', 'br'],
    ['identity', null],
    ['gzip;q=0', null],
    ['', null],
  ])('answers %j with %s', (header, expected) => {
    expect(negotiate(header)).toBe(expected);
  });
});

describe('compressed answers', () => {
  it('serve GET /configs/:name as br, gzip or plain, the same bytes and the same ETag', async () => {
    const t = createTestApp();
    await t.put('big', bigConfig());
    const plain = await t.request('/configs/big');
    const text = await plain.text();
    expect(plain.headers.get('content-encoding')).toBeNull();
    for (const encoding of ['br', 'gzip']) {
      const response = await t.request('/configs/big', {
        headers: { 'Accept-Encoding': encoding },
      });
      expect(response.headers.get('content-encoding')).toBe(encoding);
      expect(response.headers.get('vary')).toBe('Accept-Encoding');
      expect(response.headers.get('etag')).toBe(plain.headers.get('etag'));
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(bytes.length).toBeLessThan(text.length / 4);
      expect(decode(encoding, bytes)).toBe(text);
    }
  });

  it('compress a config once per stored version and keep the bytes with it', async () => {
    const t = createTestApp();
    await t.put('big', bigConfig());
    const get = () =>
      t.request('/configs/big', { headers: { 'Accept-Encoding': 'br' } });
    await (await get()).arrayBuffer();
    const weighed = t.services.caches.versions.stats().bytes;
    await (await get()).arrayBuffer();
    expect(t.services.caches.versions.stats().bytes).toBe(weighed);
    await t.put('big', { allLinks: {} });
    await (await get()).arrayBuffer();
    expect(t.services.caches.versions.stats().bytes).toBeLessThan(weighed);
  });

  it('answer 304 to a current If-None-Match whatever the encoding', async () => {
    const t = createTestApp();
    await t.put('big', bigConfig());
    const etag = (await t.request('/configs/big')).headers.get('etag') ?? '';
    const response = await t.request('/configs/big', {
      headers: { 'Accept-Encoding': 'gzip', 'If-None-Match': etag },
    });
    expect(response.status).toBe(304);
  });

  it('compress other JSON answers above 1 KiB, and leave small ones alone', async () => {
    const t = createTestApp();
    await t.put('big', bigConfig());
    const search = await t.request('/search?tag=t', {
      headers: { 'Accept-Encoding': 'gzip' },
    });
    expect(search.headers.get('content-encoding')).toBe('gzip');
    const body = JSON.parse(
      decode('gzip', Buffer.from(await search.arrayBuffer())),
    ) as { results: unknown[] };
    expect(body.results).toHaveLength(100);
    const small = await t.request('/configs', {
      headers: { 'Accept-Encoding': 'gzip' },
    });
    expect(small.headers.get('content-encoding')).toBeNull();
    expect(await small.json()).toEqual(['big']);
  });

  it('send everything plain when compression is off', async () => {
    const t = createTestApp({ compression: false });
    await t.put('big', bigConfig());
    for (const path of ['/configs/big', '/search?tag=t']) {
      const response = await t.request(path, {
        headers: { 'Accept-Encoding': 'br, gzip' },
      });
      expect(response.headers.get('content-encoding')).toBeNull();
    }
  });
});
