/**
 * Distinct visitors of a site, as a cache in front of the server sees them: each from its own address
 * of 127.0.0.0/8 (Linux answers the whole block on loopback) on a new connection, with its own browser
 * headers (user agent, language, encodings, a session cookie, now and then a stray Authorization).
 */
import { request } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

/** What a visitor got. */
export interface Seen {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** The body, decoded from its Content-Encoding. */
  readonly text: string;
}

const LANGUAGES = ['en-US,en;q=0.9', 'de-DE,de;q=0.8', 'fr', 'nb-NO', 'ja'];
const ENCODINGS = ['gzip, deflate, br', 'gzip', 'br', 'identity', undefined];

/** The address of visitor `n`: 127.0.x.y, never 127.0.0.1 (the server's, which may purge). */
export function visitorAddress(n: number): string {
  const slot = n % 60_000;
  return `127.${1 + (Math.floor(slot / 250) % 250)}.0.${2 + (slot % 250)}`;
}

/** The request headers of visitor `n`. */
export function visitorHeaders(n: number): Record<string, string> {
  const headers: Record<string, string> = {
    'User-Agent': `Mozilla/5.0 (visitor ${n})`,
    'Accept-Language': LANGUAGES[n % LANGUAGES.length] ?? 'en',
    Cookie: `session=${n}; theme=${n % 2 === 0 ? 'dark' : 'light'}`,
  };
  const encoding = ENCODINGS[n % ENCODINGS.length];
  if (encoding !== undefined) headers['Accept-Encoding'] = encoding;
  // A page that sends some key anyway: the published view is public, the answer is the same.
  if (n % 10 === 3) headers['Authorization'] = `Bearer page-key-${n}`;
  return headers;
}

function decoded(body: Buffer, encoding: string | undefined): string {
  if (encoding === 'gzip') return gunzipSync(body).toString('utf8');
  if (encoding === 'br') return brotliDecompressSync(body).toString('utf8');
  return body.toString('utf8');
}

/**
 * One request from `from` (a local address) on a connection of its own. `headers` are sent as given;
 * the body is read whole and decoded.
 */
export function send(
  url: string,
  options: {
    readonly method?: string;
    readonly from?: string;
    readonly headers?: Record<string, string>;
  } = {},
): Promise<Seen> {
  return new Promise((done, fail) => {
    const req = request(
      url,
      {
        method: options.method ?? 'GET',
        agent: false,
        headers: { Connection: 'close', ...options.headers },
        ...(options.from === undefined ? {} : { localAddress: options.from }),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          try {
            done({
              status: res.statusCode ?? 0,
              headers: res.headers,
              text: decoded(
                Buffer.concat(chunks),
                res.headers['content-encoding'],
              ),
            });
          } catch (error) {
            fail(error instanceof Error ? error : new Error(String(error)));
          }
        });
        res.on('error', fail);
      },
    );
    req.setTimeout(10_000, () => req.destroy(new Error(`${url}: timed out`)));
    req.on('error', fail);
    req.end();
  });
}

/** A read of `url` by visitor `n`. */
export function visit(url: string, n: number): Promise<Seen> {
  return send(url, { from: visitorAddress(n), headers: visitorHeaders(n) });
}

/** Runs `task(i)` for i in [0, count) with at most `concurrency` at a time. */
export async function inParallel(
  count: number,
  concurrency: number,
  task: (i: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next;
      next += 1;
      await task(i);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/** The q-quantile (0..1) of `values` (nearest rank). */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? Number.NaN;
}
