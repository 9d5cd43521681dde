import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { pino } from 'pino';
import type { Logger } from 'pino';
import { createApp } from './http/app.js';
import { DEMO_CONFIG } from './seed/demo-config.js';
import { createServices } from './services/services.js';
import { createMemoryConfigRepository } from './storage/memory/memory-config-repository.js';

/** The demo config, with a search pattern of alternatives as most stored patterns are. */
const WARM_UP_CONFIG = {
  ...DEMO_CONFIG,
  searchPatterns: { ...DEMO_CONFIG.searchPatterns, either: 'bridge|park' },
};

/** The requests of {@link warmUp}, in order: a write, a search and a query, as clients send them. */
export const WARM_UP_REQUESTS: readonly {
  readonly method: 'GET' | 'PUT' | 'POST';
  readonly path: string;
  readonly body?: unknown;
  /** `Accept-Encoding` (brotli: browsers; gzip: Node's fetch and most other clients). */
  readonly accept: 'br' | 'gzip';
}[] = [
  {
    method: 'PUT',
    path: '/configs/warm-up',
    body: WARM_UP_CONFIG,
    accept: 'gzip',
  },
  { method: 'GET', path: '/search?q=wiki', accept: 'br' },
  { method: 'GET', path: '/search?q=org', accept: 'gzip' },
  { method: 'GET', path: '/search?tag=nyc', accept: 'gzip' },
  {
    method: 'POST',
    path: '/query',
    body: {
      configName: 'warm-up',
      expression:
        '(@nycbridges | /wiki/) - miata, /either/, .coffee *sort* *limit:3*',
    },
    accept: 'gzip',
  },
  { method: 'GET', path: '/configs/warm-up', accept: 'gzip' },
];

/**
 * Runs the code of the first requests once before the server listens, on a throwaway app over a memory
 * repository holding only the demo config (issue 23, item 5). The first search and the first query after
 * a start then do not pay for what any first call pays, whatever the database holds: V8 compiling the
 * functions on their way (the engine, the search index, request parsing), re2js building its case-folding
 * tables on its first case-insensitive pattern, zlib's first compression. It reads nothing from the
 * server's storage, takes milliseconds and leaves nothing behind (the app and its data are garbage once
 * it returns). A failure here is not the server's: it is logged as a warning, and the first requests
 * pay as before.
 */
export async function warmUp(logger: Logger): Promise<void> {
  try {
    await runWarmUp();
  } catch (error) {
    // Only the first requests' speed depends on it: said, not fatal.
    logger.warn({ err: error }, 'warm-up before listening failed');
  }
}

/** Sends {@link WARM_UP_REQUESTS} to a throwaway app; the status and body of each, in order. */
export async function runWarmUp(): Promise<{ status: number; body: string }[]> {
  const services = createServices({
    repository: createMemoryConfigRepository(),
    cacheBytes: 1024 * 1024,
  });
  const app = createApp({
    services,
    logger: pino({ level: 'silent' }),
    compression: true,
  });
  const answers: { status: number; body: string }[] = [];
  for (const { method, path, body, accept } of WARM_UP_REQUESTS) {
    const response = await app.request(`http://localhost${path}`, {
      method,
      headers: {
        'Accept-Encoding': accept,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const bytes = new Uint8Array(await response.arrayBuffer());
    const encoding = response.headers.get('content-encoding');
    const text =
      encoding === 'gzip'
        ? gunzipSync(bytes)
        : encoding === 'br'
          ? brotliDecompressSync(bytes)
          : Buffer.from(bytes);
    answers.push({ status: response.status, body: text.toString('utf8') });
  }
  return answers;
}
