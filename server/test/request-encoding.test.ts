import {
  brotliCompressSync,
  constants,
  deflateSync,
  gzipSync,
} from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createTestApp, sampleConfig } from './test-app.js';

const LIMIT = 256 * 1024;

// Fast settings: the bombs below are large before compression.
const encoders = {
  gzip: (b: Buffer) => gzipSync(b, { level: 1 }),
  deflate: (b: Buffer) => deflateSync(b, { level: 1 }),
  br: (b: Buffer) =>
    brotliCompressSync(b, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 2 },
    }),
} as const;

const bytes = (buffer: Buffer): Uint8Array<ArrayBuffer> =>
  new Uint8Array(buffer) as Uint8Array<ArrayBuffer>;

/** A compressed request: body bytes and the headers that describe them. */
function encoded(
  coding: keyof typeof encoders,
  text: string,
  extra: Record<string, string> = {},
): RequestInit {
  const body = bytes(encoders[coding](Buffer.from(text)));
  return {
    body,
    headers: {
      'Content-Type': 'application/json',
      'Content-Encoding': coding,
      'Content-Length': String(body.byteLength),
      ...extra,
    },
  };
}

describe('compressed request bodies', () => {
  it.each(['gzip', 'deflate', 'br'] as const)(
    'stores a PUT body sent with Content-Encoding: %s',
    async (coding) => {
      const t = createTestApp({ bodyLimit: LIMIT });
      const config = sampleConfig();
      const response = await t.request('/configs/packed', {
        method: 'PUT',
        ...encoded(coding, JSON.stringify(config)),
      });
      expect(response.status).toBe(204);
      const stored = await t.json<{ config: { settings: unknown } }>(
        '/configs/packed',
      );
      expect(stored.body.config.settings).toEqual(config['settings']);
    },
  );

  it('decodes expression requests and tRPC mutations too', async () => {
    const t = createTestApp({ bodyLimit: LIMIT });
    await t.put('c', sampleConfig());
    const query = await t.request('/query', {
      method: 'POST',
      ...encoded('gzip', JSON.stringify({ expression: '.x', configName: 'c' })),
    });
    expect(query.status).toBe(200);
    expect(JSON.stringify(await query.json())).toContain('Bravo Two');
    const trpc = await t.request('/trpc/configs.put', {
      method: 'POST',
      ...encoded(
        'br',
        JSON.stringify({ name: 'via-trpc', config: sampleConfig() }),
      ),
    });
    expect(trpc.status).toBe(200);
    expect((await t.request('/configs/via-trpc')).status).toBe(200);
  });

  it.each(['gzip', 'br'] as const)(
    'answers 413 to a %s body that inflates past the limit, and stores nothing',
    async (coding) => {
      const t = createTestApp({ bodyLimit: LIMIT });
      // 16 MB of JSON whitespace and a value (64 times the limit): kilobytes once compressed.
      const bomb = `${' '.repeat(16 * 1024 * 1024)}{"allLinks":{}}`;
      const init = encoded(coding, bomb);
      expect((init.body as Uint8Array).byteLength).toBeLessThan(LIMIT);
      const response = await t.request('/configs/bomb', {
        method: 'PUT',
        ...init,
      });
      expect(response.status).toBe(413);
      expect(await response.json()).toEqual({
        error: `the request body is larger than the limit of ${LIMIT} bytes once decompressed`,
      });
      expect((await t.request('/configs/bomb')).status).toBe(404);
    },
  );

  it.each([
    ['an unknown coding', 'zstd'],
    ['a list of codings', 'gzip, br'],
    ['compress', 'compress'],
  ])('answers 415 to %s, naming what it accepts', async (_, coding) => {
    const t = createTestApp({ bodyLimit: LIMIT });
    const response = await t.request('/configs/x', {
      method: 'PUT',
      headers: {
        'Content-Type': 'application/json',
        'Content-Encoding': coding,
      },
      body: '{"allLinks":{}}',
    });
    expect(response.status).toBe(415);
    expect(response.headers.get('accept-encoding')).toBe('gzip, deflate, br');
    expect((await response.json()) as unknown).toEqual({
      error: expect.stringMatching(/Content-Encoding .* is not supported/),
    });
    expect((await t.request('/configs/x')).status).toBe(404);
  });

  it('answers 400 to a body that is not what its coding says', async () => {
    const t = createTestApp({ bodyLimit: LIMIT });
    const response = await t.request('/configs/x', {
      method: 'PUT',
      headers: {
        'Content-Type': 'application/json',
        'Content-Encoding': 'gzip',
      },
      body: '{"allLinks":{}}',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: 'the request body is not valid data for its Content-Encoding',
    });
  });

  it('accepts identity as no coding', async () => {
    const t = createTestApp({ bodyLimit: LIMIT });
    const response = await t.request('/configs/x', {
      method: 'PUT',
      headers: {
        'Content-Type': 'application/json',
        'Content-Encoding': 'identity',
      },
      body: '{"allLinks":{}}',
    });
    expect(response.status).toBe(204);
  });
});
