/**
 * A body of declared length is read straight from Node's request (`readNodeBody`) under the real server:
 * whatever chunks it arrives in, it is stored and answered as the same body read through
 * `Request.arrayBuffer()` (`app.request`, which has no Node request) is.
 */
import { request as httpRequest } from 'node:http';
import { gunzipSync, gzipSync } from 'node:zlib';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { generateConfig } from '../bench/dataset.js';
import { createApp } from '../src/http/app.js';
import { createServices } from '../src/services/services.js';
import type { RunningServer } from '../src/start-server.js';
import { createMemoryConfigRepository } from '../src/storage/memory/memory-config-repository.js';
import { quietServer } from './sse-client.js';

/** Sends `body` in pieces cut at `cuts` (byte offsets), with its length declared; answers status and text. */
function sendInPieces(
  url: string,
  body: Buffer,
  {
    cuts,
    method = 'PUT',
    headers = {},
  }: {
    cuts: readonly number[];
    method?: string;
    headers?: Readonly<Record<string, string>>;
  },
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, {
      method,
      headers: {
        'Content-Type': 'application/json',
        'Content-Length': String(body.length),
        ...headers,
      },
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          text: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    req.on('error', reject);
    let at = 0;
    const next = (i: number): void => {
      const end = cuts[i] ?? body.length;
      req.write(body.subarray(at, end));
      at = end;
      if (at >= body.length) req.end();
      else setTimeout(() => next(i + 1), 5);
    };
    next(0);
  });
}

const servers: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function started(): Promise<RunningServer> {
  const server = await quietServer({
    repository: createMemoryConfigRepository(),
    appDir: '/nonexistent',
    rateLimit: false,
  });
  servers.push(server);
  return server;
}

/** The same request through `app.request` (the body read with `Request.arrayBuffer()`). */
async function throughRequest(
  path: string,
  body: Buffer,
  headers: Readonly<Record<string, string>> = {},
): Promise<{ status: number; text: string; stored: unknown }> {
  const app = createApp({
    services: createServices({ repository: createMemoryConfigRepository() }),
    logger: pino({ level: 'silent' }),
  });
  const answer = await app.request(`http://localhost${path}`, {
    method: 'PUT',
    headers: {
      'Content-Type': 'application/json',
      'Content-Length': String(body.length),
      ...headers,
    },
    body: new Uint8Array(body),
  });
  const read = await app.request(`http://localhost${path}`);
  return {
    status: answer.status,
    text: await answer.text(),
    stored: await storedConfig(read),
  };
}

/** The config a `GET /configs/:name` answered, or `undefined` when there is none. */
async function storedConfig(read: Response): Promise<unknown> {
  if (read.status !== 200) return undefined;
  return (JSON.parse(await read.text()) as { config: unknown }).config;
}

const GZIP: Readonly<Record<string, string>> = { 'Content-Encoding': 'gzip' };

/** The body's text, decompressed when it was sent gzip-compressed. */
const gunzipped = (
  body: Buffer,
  headers: Readonly<Record<string, string>>,
): string =>
  (headers['Content-Encoding'] === 'gzip' ? gunzipSync(body) : body).toString();

const large = JSON.stringify(generateConfig({ links: 400, seed: 7 }));
const wide = large.replace(/"label":"/, '"label":"é€😀 ');

describe('a body read from Node’s request (declared length)', () => {
  it.each([
    ['ASCII, one piece', Buffer.from(large), []],
    ['ASCII, many pieces', Buffer.from(large), [1, 7, 70_000, 90_001]],
    // Cuts inside a two-, three- and four-byte character.
    [
      'wider characters cut between pieces',
      Buffer.from(wide),
      [25, 27, 30, 33],
    ],
    [
      'not UTF-8',
      Buffer.concat([
        Buffer.from('{"a":"'),
        Buffer.from([0xc3]),
        Buffer.from('"}'),
      ]),
      [7],
    ],
    ['not JSON', Buffer.from('{"allLinks": '), [3]],
    ['empty', Buffer.alloc(0), []],
    ['gzip-compressed', gzipSync(large), [10, 2000], GZIP],
    ['gzip-compressed, not valid data', Buffer.from('not gzip'), [2], GZIP],
  ])('%s: stored and answered as through Request', async (...row) => {
    const [, body, cuts, headers = {}] = row;
    const server = await started();
    const path = '/configs/piece';
    const got = await sendInPieces(`${server.url}${path}`, body, {
      cuts,
      headers,
    });
    const stored = await fetch(`${server.url}${path}`);
    const expected = await throughRequest(path, body, headers);
    expect(got.status).toBe(expected.status);
    expect(got.text).toBe(expected.text);
    expect(await storedConfig(stored)).toEqual(expected.stored);
    if (expected.status === 204)
      expect(expected.stored).toEqual(JSON.parse(gunzipped(body, headers)));
  });

  it('a tRPC body in pieces is read whole', async () => {
    const server = await started();
    const input = { name: 'rpc', config: JSON.parse(large) as unknown };
    const body = Buffer.from(JSON.stringify(input));
    const got = await sendInPieces(`${server.url}/trpc/configs.put`, body, {
      cuts: [5, 60_000],
      method: 'POST',
    });
    expect(got.status).toBe(200);
    const stored = await fetch(`${server.url}/configs/rpc`);
    expect(await storedConfig(stored)).toEqual(input.config);
  });

  it('a body cut short is not stored', async () => {
    const server = await started();
    const body = Buffer.from(large);
    await new Promise<void>((resolve) => {
      const req = httpRequest(`${server.url}/configs/cut`, {
        method: 'PUT',
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': String(body.length),
        },
      });
      req.on('error', () => resolve());
      req.write(body.subarray(0, 1000), () =>
        setTimeout(() => {
          req.destroy();
          resolve();
        }, 20),
      );
    });
    await new Promise((r) => setTimeout(r, 50));
    expect((await fetch(`${server.url}/configs/cut`)).status).toBe(404);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});
