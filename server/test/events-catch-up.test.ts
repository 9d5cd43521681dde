/**
 * Resuming the change feed on both databases, over real sockets: `GET /events` and the tRPC
 * subscription `configs.changes`. A reader far behind a burst of long changes catches up (issue 17,
 * item 1); an id beyond the newest change is answered with a reset (item 5).
 */
import { request } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { createTRPCClient, httpSubscriptionLink } from '@trpc/client';
import { EventSource } from 'eventsource';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { AppRouter } from '../src/index.js';
import { createLogger } from '../src/logger.js';
import { startServer } from '../src/start-server.js';
import type { RunningServer } from '../src/start-server.js';
import type { ConfigRepository } from '../src/storage/config-repository.js';
import { createMemoryConfigRepository } from '../src/storage/memory/memory-config-repository.js';
import { quietServer, readStream } from './sse-client.js';
import { postgresDatabases, sqliteDatabases } from './test-databases.js';

const databases = [sqliteDatabases(), postgresDatabases()];
const servers: RunningServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close(1000);
});
afterAll(async () => {
  for (const db of databases) await db.cleanup();
});

async function start(
  repository: ConfigRepository,
  eventsBuffer?: number,
): Promise<RunningServer> {
  const server = await quietServer({
    repository,
    ...(eventsBuffer === undefined ? {} : { eventsBuffer }),
  });
  servers.push(server);
  return server;
}

/** 600 changes of ≈ 900 bytes each: more than one page (500) and more than the buffer (256 KiB). */
const BURST = 600;
const LONG = '€'.repeat(256);
async function burst(repository: ConfigRepository): Promise<void> {
  for (let i = 0; i < BURST; i++) await repository.put(`${LONG}${i}`, '{}');
}

type Received = { id: string; data: unknown };

/** Subscribes to `configs.changes` from `lastEventId` until `count` messages or an error. */
function subscribe(server: RunningServer, lastEventId: string, count: number) {
  const client = createTRPCClient<AppRouter>({
    links: [httpSubscriptionLink({ url: `${server.url}/trpc`, EventSource })],
  });
  const got: Received[] = [];
  return new Promise<Received[]>((resolve, reject) => {
    const subscription = client.configs.changes.subscribe(
      { lastEventId },
      {
        onData: (event) => {
          got.push(event);
          if (got.length === count) {
            subscription.unsubscribe();
            resolve(got);
          }
        },
        onError: (error) => {
          subscription.unsubscribe();
          reject(error);
        },
      },
    );
  });
}

describe.each(databases)('resuming the change feed on $kind', (db) => {
  it('GET /events: a reader behind a burst of long-named changes gets every one of them (F1)', async () => {
    const repository = await db.create();
    const server = await start(repository);
    await burst(repository);
    const head = await repository.head();
    const { status, text } = await readStream(`${server.url}/events`, {
      headers: { 'Last-Event-ID': '0' },
      done: (t) => t.includes(`id: ${head}\n`),
    });
    expect(status).toBe(200);
    const ids = [...text.matchAll(/^id: (\d+)\nevent: change\n/gm)].map((m) =>
      Number(m[1]),
    );
    expect(ids).toHaveLength(BURST);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(text).toContain(`"name":"${LONG}${BURST - 1}"`);
  });

  it('configs.changes: a subscriber behind a burst of long-named changes gets every one of them (F1)', async () => {
    const repository = await db.create();
    const server = await start(repository);
    await burst(repository);
    const got = await subscribe(server, '0', BURST);
    expect(got.map((m) => (m.data as { name: string }).name)).toEqual(
      Array.from({ length: BURST }, (_, i) => `${LONG}${i}`),
    );
  });

  it('GET /events: a live reader gets a burst written through another instance, however small its buffer (F1)', async () => {
    const repository = await db.create();
    const other = await db.connect(repository);
    const server = await start(repository, 4096);
    const reading = readStream(`${server.url}/events`, {
      done: (t) => t.includes(`id: ${BURST}\n`),
    });
    await vi.waitFor(() => expect(server.services.changes.openStreams).toBe(1));
    try {
      await burst(other);
    } finally {
      await other.close();
    }
    const { text } = await reading;
    expect(text.match(/event: change/g)).toHaveLength(BURST);
  });

  it('GET /events: an id beyond the newest change gets a reset to the newest (F2)', async () => {
    const repository = await db.create();
    const server = await start(repository);
    for (const name of ['a', 'b']) await repository.put(name, '{}');
    const head = await repository.head();
    const { text } = await readStream(`${server.url}/events`, {
      headers: { 'Last-Event-ID': String(head + 5) },
      done: (t) => t.includes('event: reset'),
    });
    expect(text).toContain(`id: ${head}\nevent: reset\n`);
    // Then live changes, after the head.
    await vi.waitFor(() => expect(server.services.changes.openStreams).toBe(0));
    const live = readStream(`${server.url}/events?lastEventId=${head + 5}`, {
      done: (t) => t.includes('"name":"c"'),
    });
    await vi.waitFor(() => expect(server.services.changes.openStreams).toBe(1));
    await repository.put('c', '{}');
    expect((await live).text).toMatch(
      new RegExp(`event: reset[^]*id: ${head + 1}\nevent: change`),
    );
  });

  it('configs.changes: an id beyond the newest change gets a reset to the newest (F2)', async () => {
    const repository = await db.create();
    const server = await start(repository);
    for (const name of ['a', 'b']) await repository.put(name, '{}');
    const head = await repository.head();
    const got = await subscribe(server, String(head + 5), 1);
    expect(got).toEqual([{ id: String(head), data: { type: 'reset' } }]);
  });
});

describe('a stream cut off for falling behind', () => {
  it('is logged with the stream’s number and how far behind it was (F1)', async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = createLogger('info', {
      write: (text: string) => {
        lines.push(JSON.parse(text) as Record<string, unknown>);
      },
    });
    const repository = createMemoryConfigRepository();
    const server = await startServer({
      port: 0,
      host: '127.0.0.1',
      seed: 'none',
      logger,
      repository,
      eventsBuffer: 4096,
    });
    servers.push(server);
    const { port } = new URL(server.url);
    const response = await new Promise<IncomingMessage>((resolve) => {
      request({ host: '127.0.0.1', port, path: '/events' }, resolve).end();
    });
    response.pause();
    response.on('error', () => undefined);
    await vi.waitFor(() => expect(server.services.changes.openStreams).toBe(1));
    for (let i = 0; server.services.changes.openStreams > 0; i++) {
      if (i > 200_000) throw new Error('the stopped reader was never cut off');
      await repository.put(`${'n'.repeat(240)}${i}`, '{}');
      if (i % 200 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    }
    response.destroy();
    const cut = lines.find((line) =>
      String(line['msg']).startsWith('change stream cut off'),
    );
    expect(cut).toMatchObject({
      level: 40, // warn
      stream: 1,
      cursor: expect.any(Number),
      head: expect.any(Number),
      behindChanges: expect.any(Number),
    });
    expect(cut?.['bufferedBytes']).toBeGreaterThan(4096);
  });
});
