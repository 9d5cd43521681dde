import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Context as HonoContext } from 'hono';

/** The encodings we send, best first. */
export type Encoding = 'br' | 'gzip';

/** Bodies smaller than this go out as they are: compressing them saves too little. */
export const MIN_COMPRESSED_BYTES = 1024;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * The encoding to answer with, from `Accept-Encoding`: `br` when the client accepts it, else `gzip`,
 * else none. A coding with `q=0` is refused; `*` accepts both.
 */
export function negotiate(header: string | undefined): Encoding | null {
  if (header === undefined || header === '') return null;
  const accepted = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params
      .map((p) => /^\s*q\s*=\s*([\d.]+)\s*$/.exec(p)?.[1])
      .find((v) => v !== undefined);
    accepted.set(name.trim(), q === undefined ? 1 : Number(q));
  }
  const weight = (coding: Encoding) =>
    accepted.get(coding) ?? accepted.get('*') ?? 0;
  if (weight('br') > 0) return 'br';
  if (weight('gzip') > 0) return 'gzip';
  return null;
}

/** How hard to compress: bodies compressed once and reused get more effort than per-request ones. */
export type Effort = 'once' | 'per-request';

/**
 * Compresses `body` off the event loop (zlib runs in libuv's thread pool). Brotli quality 5 / gzip 6 for
 * bodies kept and reused, brotli 4 / gzip 5 for bodies made per request. Higher brotli qualities cost
 * far more than they save here: on a 74 KB config, quality 9 took 47 ms against 1.3 ms for quality 5,
 * for an answer 10 % smaller; while the first requests after a write wait for it, that is the wrong trade.
 */
export async function compress(
  body: string | Uint8Array,
  encoding: Encoding,
  effort: Effort,
): Promise<Uint8Array<ArrayBuffer>> {
  const input = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const out =
    encoding === 'br'
      ? await brotli(input, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: effort === 'once' ? 5 : 4,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: input.byteLength,
          },
        })
      : await gzipAsync(input, { level: effort === 'once' ? 6 : 5 });
  return new Uint8Array(
    out.buffer as ArrayBuffer,
    out.byteOffset,
    out.byteLength,
  );
}

/** The encoding for this request, or `null` (compression off, nothing accepted). */
export function encodingFor(c: HonoContext, enabled: boolean): Encoding | null {
  return enabled ? negotiate(c.req.header('accept-encoding')) : null;
}

/**
 * A JSON response, compressed when `encoding` is given and the body is big enough. Every JSON answer
 * says `Vary: Accept-Encoding`, compressed or not, so caches keep the variants apart. An answer sent as
 * it is comes back at once (no promise); a compressed one once it is compressed.
 */
export function jsonResponse(
  body: string,
  encoding: Encoding | null,
  headers: Record<string, string> = {},
): Response | Promise<Response> {
  const all: Record<string, string> = {
    'Content-Type': 'application/json; charset=utf-8',
    Vary: 'Accept-Encoding',
    ...headers,
  };
  if (encoding === null || body.length < MIN_COMPRESSED_BYTES) {
    return new Response(body, { headers: all });
  }
  return compress(body, encoding, 'per-request').then(
    (bytes) =>
      new Response(bytes, {
        headers: { ...all, 'Content-Encoding': encoding },
      }),
  );
}
