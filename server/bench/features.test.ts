import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wireBytes } from './features.js';

const body = JSON.stringify({ words: 'coffee '.repeat(2000) });
const gzipped = gzipSync(body);

describe('wireBytes', () => {
  let server: Server;
  let url = '';

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (String(req.headers['accept-encoding']).includes('gzip')) {
        res.writeHead(200, { 'content-encoding': 'gzip' });
        res.end(gzipped);
      } else {
        res.writeHead(200);
        res.end(body);
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const address = server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`;
  });

  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('counts the bytes as sent, before any decoding, and reads the encoding', async () => {
    expect(await wireBytes(url, {})).toEqual({
      bytes: Buffer.byteLength(body),
      encoding: 'identity',
      status: 200,
    });
    expect(await wireBytes(url, { 'accept-encoding': 'gzip, br' })).toEqual({
      bytes: gzipped.length,
      encoding: 'gzip',
      status: 200,
    });
  });
});
