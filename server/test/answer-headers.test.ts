/**
 * The headers of answers as they go out on the socket, names in order and values: a config's entry (200,
 * 304, compressed), a `/published` entry and list, and error answers (404, 405). The handlers build these
 * header records by hand for speed (`entry-response.ts`, `rest-routes.ts`, `app.ts`); this pins what a
 * client receives, byte for byte apart from the date and the request-independent length.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../src/start-server.js';
import type { RunningServer } from '../src/start-server.js';
import { createMemoryConfigRepository } from '../src/storage/memory/memory-config-repository.js';
import { createLogger } from '../src/logger.js';

/** What a client gets: status, header names in wire order with their values, and the body. */
interface WireAnswer {
  readonly status: number;
  /** `[name, value]` in the order sent, `Date` and `Keep-Alive` left out (they vary). */
  readonly headers: readonly (readonly [string, string])[];
  readonly body: Buffer;
}

const VARYING = new Set(['date', 'keep-alive']);

function wire(
  server: RunningServer,
  asked: `${string} /${string}`,
  headers: Record<string, string> = {},
): Promise<WireAnswer> {
  const [method, path] = asked.split(' ');
  return new Promise((resolve, reject) => {
    const r = request(
      {
        host: '127.0.0.1',
        port: server.port,
        method,
        path,
        headers: { 'X-Request-Id': 'wire-1', ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const pairs: [string, string][] = [];
          for (let i = 0; i < res.rawHeaders.length; i += 2) {
            const name = res.rawHeaders[i] ?? '';
            if (!VARYING.has(name.toLowerCase()))
              pairs.push([name, res.rawHeaders[i + 1] ?? '']);
          }
          resolve({
            status: res.statusCode ?? 0,
            headers: pairs,
            body: Buffer.concat(chunks),
          });
        });
        res.on('error', reject);
      },
    );
    r.on('error', reject);
    r.end();
  });
}

const SECURITY: readonly (readonly [string, string])[] = [
  [
    'Content-Security-Policy',
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; " +
      "connect-src 'self'; worker-src 'self'; manifest-src 'self'; object-src 'none'; base-uri 'none'; " +
      "form-action 'self'; frame-ancestors 'none'",
  ],
  ['X-Content-Type-Options', 'nosniff'],
  ['X-Frame-Options', 'DENY'],
  ['Referrer-Policy', 'no-referrer'],
  ['X-Request-Id', 'wire-1'],
];
const JSON_TYPE = 'application/json; charset=utf-8';
const CONFIG = {
  allLinks: { a: { url: 'https://example.com/a', label: 'A' } },
};

describe('answer headers on the wire', () => {
  let server: RunningServer;
  let etag: string;
  beforeAll(async () => {
    server = await startServer({
      repository: createMemoryConfigRepository(),
      logger: createLogger('silent'),
      port: 0,
      host: '127.0.0.1',
      seed: 'none',
      appDir: '/nonexistent',
    });
    const put = await fetch(`${server.url}/configs/site%2Fmenu`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(CONFIG),
    });
    expect(put.status).toBe(204);
    etag = put.headers.get('etag') ?? '';
    await server.services.publish.publish('site/menu', {});
  });
  afterAll(async () => {
    await server.close(1000);
  });

  it('sends a config entry with its headers in order, and the same again from memory', async () => {
    for (let round = 0; round < 2; round++) {
      const got = await wire(server, 'GET /configs/site%2Fmenu');
      expect(got.status).toBe(200);
      const body = JSON.parse(got.body.toString('utf8')) as {
        config: unknown;
      };
      expect(body.config).toEqual(CONFIG);
      expect(got.headers).toEqual([
        ...SECURITY,
        ['Cache-Control', 'no-cache'],
        ['ETag', etag],
        ['Vary', 'Accept-Encoding'],
        ['Content-Type', JSON_TYPE],
        ['Connection', 'keep-alive'],
        ['Content-Length', String(got.body.byteLength)],
      ]);
    }
  });

  it('answers 304 with the same headers and no body when the client holds the version', async () => {
    const got = await wire(server, 'GET /configs/site%2Fmenu', {
      'If-None-Match': `W/${etag}, "other"`,
    });
    expect(got.status).toBe(304);
    expect(got.body.byteLength).toBe(0);
    expect(got.headers).toEqual([
      ...SECURITY,
      ['Cache-Control', 'no-cache'],
      ['ETag', etag],
      ['Vary', 'Accept-Encoding'],
      ['Connection', 'keep-alive'],
    ]);
  });

  it('sends the compressed entry with its encoding after the type', async () => {
    const got = await wire(server, 'GET /configs/site%2Fmenu', {
      'Accept-Encoding': 'gzip',
    });
    expect(got.status).toBe(200);
    // Below MIN_COMPRESSED_BYTES: sent as it is, with the same headers as without the header.
    expect(got.headers.map(([name]) => name)).toEqual([
      ...SECURITY.map(([name]) => name),
      'Cache-Control',
      'ETag',
      'Vary',
      'Content-Type',
      'Connection',
      'Content-Length',
    ]);
  });

  it('sends a /published entry with its cache headers and surrogate keys in order', async () => {
    const got = await wire(server, 'GET /published/configs/site%2Fmenu');
    expect(got.status).toBe(200);
    const names = got.headers.map(([name]) => name);
    expect(names).toEqual([
      ...SECURITY.map(([name]) => name),
      'Surrogate-Key',
      'Cache-Tag',
      'Cache-Control',
      'ETag',
      'Vary',
      'Content-Type',
      'Connection',
      'Content-Length',
    ]);
    const value = (name: string) => got.headers.find(([n]) => n === name)?.[1];
    expect(value('Surrogate-Key')).toBe('published published:site%2Fmenu');
    expect(value('Cache-Tag')).toBe('published,published:site%2Fmenu');
  });

  it('sends a /published list with its cache headers, strong ETag and surrogate keys in order', async () => {
    const got = await wire(server, 'GET /published/configs');
    expect(got.status).toBe(200);
    expect(got.headers.map(([name]) => name)).toEqual([
      'Content-Type',
      'Vary',
      ...SECURITY.map(([name]) => name),
      'Cache-Control',
      'ETag',
      'Surrogate-Key',
      'Cache-Tag',
      'Connection',
      'Content-Length',
    ]);
    const tag = got.headers.find(([n]) => n === 'ETag')?.[1] ?? '';
    const again = await wire(server, 'GET /published/configs', {
      'If-None-Match': tag,
    });
    expect(again.status).toBe(304);
    expect(again.headers.map(([name]) => name)).toEqual([
      ...SECURITY.map(([name]) => name),
      'Cache-Control',
      'Vary',
      'ETag',
      'Surrogate-Key',
      'Cache-Tag',
      'Connection',
    ]);
  });

  it('sends errors with the type after the common headers and the error’s own headers last', async () => {
    const missing = await wire(server, 'GET /configs/nothing-here');
    expect(missing.status).toBe(404);
    expect(missing.headers).toEqual([
      ...SECURITY,
      ['Content-Type', JSON_TYPE],
      ['Connection', 'keep-alive'],
      ['Content-Length', String(missing.body.byteLength)],
    ]);
    const refused = await wire(server, 'POST /configs/site%2Fmenu');
    expect(refused.status).toBe(405);
    expect(refused.headers.map(([name]) => name)).toEqual([
      ...SECURITY.map(([name]) => name),
      'Content-Type',
      'Allow',
      'Connection',
      'Content-Length',
    ]);
  });
});
