import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { pino } from 'pino';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startServer } from '../src/start-server.js';
import type { RunningServer, StartOptions } from '../src/start-server.js';
import { createMemoryConfigRepository } from '../src/storage/memory/memory-config-repository.js';
import { sampleConfig } from './test-app.js';

/** Over the 256 KiB above which a body needs a permit (two permits in all). */
const LARGE = 400_000;

/** A valid config of more than 256 KiB. */
const largeConfig = (): string =>
  JSON.stringify({ ...sampleConfig(), extra: { pad: 'x'.repeat(300_000) } });

const servers: RunningServer[] = [];
const sockets: Socket[] = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.destroy();
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close(100)));
});

const start = async (options: StartOptions): Promise<RunningServer> => {
  const server = await startServer({
    repository: createMemoryConfigRepository(),
    logger: pino({ level: 'silent' }),
    port: 0,
    host: '127.0.0.1',
    seed: 'none',
    appDir: '/nonexistent',
    rateLimit: false,
    ...options,
  });
  servers.push(server);
  return server;
};

/** A request sent by hand, its body a byte at a time. */
interface SlowUpload {
  /** The answer as received (`undefined`: none came within the wait, or the connection closed first). */
  readonly answer: Promise<string | undefined>;
  /** Sends the rest of the declared body at once. */
  finish(): void;
}

/** Extra headers of a {@link slowUpload}, and how long to wait for its answer. */
interface UploadOptions {
  readonly headers: Readonly<Record<string, string>>;
  readonly waitMs: number;
}

/**
 * Sends the head of `method path` declaring `length` body bytes, then one byte every 100 ms until an
 * answer comes (or `finish`). The answer is whatever arrived `waitMs` after the first of it, or nothing.
 */
function slowUpload(
  server: RunningServer,
  head: { method: string; path: string; length: number },
  { headers = {}, waitMs = 5000 }: Partial<UploadOptions> = {},
): SlowUpload {
  const socket = connect(server.port, '127.0.0.1');
  sockets.push(socket);
  socket.on('error', () => undefined);
  let sent = 0;
  const lines = [
    `${head.method} ${head.path} HTTP/1.1`,
    'Host: localhost',
    'Content-Type: application/json',
    `Content-Length: ${head.length}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  socket.write(`${lines.join('\r\n')}\r\n\r\n`);
  const drip = setInterval(() => {
    if (sent < head.length - 1 && !socket.destroyed) {
      socket.write(' ');
      sent++;
    }
  }, 100);
  const answer = new Promise<string | undefined>((resolve) => {
    let text = '';
    const done = (value: string | undefined): void => {
      clearInterval(drip);
      clearTimeout(timer);
      resolve(value);
    };
    const timer = setTimeout(() => done(undefined), waitMs);
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      // The whole (small) answer: head and body.
      setTimeout(() => done(text), 50);
    });
    socket.on('close', () => done(text === '' ? undefined : text));
  });
  return {
    answer,
    finish: () => {
      clearInterval(drip);
      socket.write(`${' '.repeat(head.length - 1 - sent)}{`);
    },
  };
}

const statusOf = (answer: string | undefined): number | undefined => {
  const status = /^HTTP\/1\.1 (\d{3})/.exec(answer ?? '')?.[1];
  return status === undefined ? undefined : Number(status);
};

describe('slow request bodies', () => {
  it('are cut with 408, Connection: close and { error } once they fall below BODY_MIN_RATE', async () => {
    // The default floor (64 KiB/s after the first second): a byte every 100 ms is far below it.
    const server = await start({});
    const large = slowUpload(server, {
      method: 'POST',
      path: '/trpc/expressions.query',
      length: LARGE,
    });
    // A small body (no permit) is held to the floor as well.
    const small = slowUpload(server, {
      method: 'PUT',
      path: '/configs/slow',
      length: 1000,
    });
    for (const answer of [await large.answer, await small.answer]) {
      expect(statusOf(answer)).toBe(408);
      expect(answer).toMatch(/\r\nconnection: close\r\n/i);
      const body = JSON.parse(answer?.split('\r\n\r\n')[1] ?? '') as unknown;
      expect(body).toEqual({ error: expect.stringMatching(/slower than/) });
    }
  });
});

describe('large bodies and access', () => {
  it('refuses a caller without a token before it takes a permit or its body is read, on /trpc (batches too) and REST', async () => {
    // No floor: only the access check can answer these before their bodies are complete.
    const server = await start({
      apiToken: 'write-token',
      readToken: 'read-token',
      bodyMinRate: 0,
    });
    const uploads = [
      '/trpc/expressions.query',
      '/trpc/expressions.query,configs.put?batch=1',
      '/trpc/expressions.query%2Cconfigs.put/?batch=1',
      '/trpc/configs.put/',
    ].map((path) =>
      slowUpload(
        server,
        { method: 'POST', path, length: LARGE },
        { waitMs: 3000 },
      ),
    );
    uploads.push(
      slowUpload(
        server,
        { method: 'PUT', path: '/configs/held', length: LARGE },
        { waitMs: 3000 },
      ),
    );
    const answers = await Promise.all(uploads.map((u) => u.answer));
    expect(answers.map(statusOf)).toEqual([401, 401, 401, 401, 401]);
    // Both permits are free: a large write with the token goes through at once (before the fix it waited
    // 15 s behind the unauthenticated uploads, then got 503).
    const put = await fetch(`${server.url}/configs/big`, {
      method: 'PUT',
      headers: {
        'Content-Type': 'application/json',
        Authorization: 'Bearer write-token',
      },
      body: largeConfig(),
      signal: AbortSignal.timeout(5000),
    });
    expect(put.status).toBe(204);
  });
});

describe('large bodies per client', () => {
  it('lets one client hold one permit at a time: its second large body waits while another client goes ahead', async () => {
    // Behind one trusted proxy: X-Forwarded-For names the client. No floor, so the uploads stay open.
    const server = await start({ trustProxy: 1, bodyMinRate: 0 });
    const fromA = { 'X-Forwarded-For': '192.0.2.1' };
    const first = slowUpload(
      server,
      { method: 'PUT', path: '/configs/a1', length: LARGE },
      { headers: fromA, waitMs: 10_000 },
    );
    const second = slowUpload(
      server,
      { method: 'PUT', path: '/configs/a2', length: LARGE },
      { headers: fromA, waitMs: 10_000 },
    );
    // Let both reach the server (and the permits) before the other client comes.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const put = await fetch(`${server.url}/configs/b`, {
      method: 'PUT',
      headers: {
        'Content-Type': 'application/json',
        'X-Forwarded-For': '192.0.2.2',
      },
      body: largeConfig(),
      signal: AbortSignal.timeout(5000),
    }).then(
      (r) => r.status,
      () => 'no answer in 5 s',
    );
    expect(put).toBe(204);
    first.finish();
    second.finish();
    // Both of A's bodies are whitespace and `{`: not JSON, so 400, one after the other.
    expect(statusOf(await first.answer)).toBe(400);
    expect(statusOf(await second.answer)).toBe(400);
  });
});

describe('slow inline bodies and the permits of stored configs (issue 29, item 6)', () => {
  /** Two clients trickling large bodies to `path`, each from its own address behind the proxy. */
  const twoSlow = (server: RunningServer, path: string) =>
    ['192.0.2.11', '192.0.2.12'].map((address) =>
      slowUpload(
        server,
        { method: 'POST', path, length: LARGE },
        { headers: { 'X-Forwarded-For': address }, waitMs: 10_000 },
      ),
    );

  const largePut = (server: RunningServer, headers: Record<string, string>) =>
    fetch(`${server.url}/configs/big`, {
      method: 'PUT',
      headers: {
        'Content-Type': 'application/json',
        'X-Forwarded-For': '192.0.2.13',
        ...headers,
      },
      body: largeConfig(),
      signal: AbortSignal.timeout(5000),
    }).then(
      (r) => r.status,
      () => 'no answer in 5 s',
    );

  it('two anonymous clients trickling large /query bodies leave a large PUT its permit', async () => {
    // No floor: the two uploads hold whatever they took until they finish.
    const server = await start({ trustProxy: 1, bodyMinRate: 0 });
    const uploads = twoSlow(server, '/query');
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Before: both permits taken, the PUT waited 15 s and got 503.
    expect(await largePut(server, {})).toBe(204);
    for (const upload of uploads) upload.finish();
    for (const upload of uploads)
      expect(statusOf(await upload.answer)).toBe(400);
  });

  it('a batch naming configs.put takes an inline permit when its caller may not write', async () => {
    const server = await start({
      apiToken: 'write-token',
      trustProxy: 1,
      bodyMinRate: 0,
    });
    // Anonymous callers may read (ANONYMOUS_READ defaults to *), so the batch is read, but as a read.
    const uploads = twoSlow(
      server,
      '/trpc/configs.put,expressions.query?batch=1',
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(
      await largePut(server, { Authorization: 'Bearer write-token' }),
    ).toBe(204);
    for (const upload of uploads) upload.finish();
    for (const upload of uploads)
      expect(statusOf(await upload.answer)).toBe(400);
  });
});
