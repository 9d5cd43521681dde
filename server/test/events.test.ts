/**
 * The change feed over HTTP, on real sockets: `GET /events` (Server-Sent Events) and the tRPC
 * subscription `configs.changes`. Across instances and processes: `multi-instance.test.ts` and
 * `sqlite-processes.test.ts`.
 */
import { request } from 'node:http';
import type { IncomingMessage } from 'node:http';
import type { TRPCClientError } from '@trpc/client';
import { createTRPCClient, httpSubscriptionLink } from '@trpc/client';
import { EventSource } from 'eventsource';
import { pino } from 'pino';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { AppRouter } from '../src/index.js';
import { startServer } from '../src/start-server.js';
import type { RunningServer, StartOptions } from '../src/start-server.js';
import { createMemoryConfigRepository } from '../src/storage/memory/memory-config-repository.js';
import { listen, readStream } from './sse-client.js';
import type { Listener } from './sse-client.js';
import { sqliteDatabases } from './test-databases.js';

const sqlite = sqliteDatabases();
const servers: RunningServer[] = [];
const listeners: Listener[] = [];
afterEach(async () => {
  for (const l of listeners.splice(0)) l.close();
  for (const s of servers.splice(0)) await s.close(1000);
});
afterAll(() => sqlite.cleanup());

/** A server on a free port; SQLite unless a repository is given. */
async function start(options: Partial<StartOptions> = {}) {
  const server = await startServer({
    port: 0,
    host: '127.0.0.1',
    seed: 'none',
    logger: pino({ level: 'silent' }),
    repository: options.repository ?? (await sqlite.create()),
    ...options,
  });
  servers.push(server);
  return server;
}
const open = (url: string, headers?: Record<string, string>) => {
  const listener = listen(url, headers);
  listeners.push(listener);
  return listener;
};
const put = (server: RunningServer, name: string, headers = {}) =>
  fetch(`${server.url}/configs/${encodeURIComponent(name)}`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify({ allLinks: { l: { url: `https://${name}` } } }),
  });
const del = (server: RunningServer, name: string) =>
  fetch(`${server.url}/configs/${encodeURIComponent(name)}`, {
    method: 'DELETE',
  });
describe('GET /events', () => {
  it('streams every committed change to an EventSource, with the ETags the writes answered', async () => {
    const server = await start();
    const es = open(`${server.url}/events`);
    await es.opened;
    const a = (await put(server, 'a')).headers.get('etag');
    const b = (await put(server, 'b')).headers.get('etag');
    expect((await del(server, 'a')).status).toBe(204);
    await vi.waitFor(() => expect(es.events).toHaveLength(3));
    const data = es.events.map((e) => JSON.parse(e.data) as unknown);
    expect(data).toEqual([
      { name: 'a', op: 'put', etag: a, updatedAt: expect.any(String) },
      { name: 'b', op: 'put', etag: b, updatedAt: expect.any(String) },
      { name: 'a', op: 'delete', etag: null, updatedAt: expect.any(String) },
    ]);
    const numbers = es.events.map((e) => Number(e.id));
    expect(numbers).toEqual([...numbers].sort((x, y) => x - y));
    expect(new Set(numbers).size).toBe(3);
  });

  it('sends the SSE headers and frames', async () => {
    const server = await start();
    await put(server, 'a');
    const { status, headers, text } = await readStream(
      `${server.url}/events?lastEventId=0`,
      { done: (t) => t.includes('event: change') && t.endsWith('\n\n') },
    );
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe(
      'text/event-stream; charset=utf-8',
    );
    expect(headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(text).toMatch(
      /^retry: \d+\n: connected\n\nid: 1\nevent: change\ndata: \{"name":"a","op":"put","etag":"\\"[0-9a-z]+-[0-9a-z]+\\"","updatedAt":"[^"]+"\}\n\n$/,
    );
  });

  it('resumes after the id in Last-Event-ID or ?lastEventId=, with every later change first', async () => {
    const server = await start();
    for (const name of ['x1', 'x2', 'x3']) await put(server, name);
    const asks: { headers: Record<string, string>; query: string }[] = [
      { headers: { 'Last-Event-ID': '1' }, query: '' },
      { headers: {}, query: '?lastEventId=1' },
    ];
    for (const ask of asks) {
      const { text } = await readStream(`${server.url}/events${ask.query}`, {
        headers: ask.headers,
        done: (t) => t.includes('id: 3\n') && t.endsWith('\n\n'),
      });
      expect(text).not.toContain('"x1"');
      expect(text.indexOf('"x2"')).toBeLessThan(text.indexOf('"x3"'));
    }
  });

  it('resumes an EventSource from the id it saw last, missing nothing written while it was away', async () => {
    const server = await start();
    const first = open(`${server.url}/events`);
    await first.opened;
    await put(server, 'seen');
    await vi.waitFor(() => expect(first.events).toHaveLength(1));
    first.close();
    await put(server, 'missed-1');
    await put(server, 'missed-2');
    const again = open(`${server.url}/events`, {
      'Last-Event-ID': first.events[0]?.id ?? '',
    });
    await again.opened;
    await put(server, 'live');
    await vi.waitFor(() => expect(again.events).toHaveLength(3));
    expect(
      again.events.map((e) => (JSON.parse(e.data) as { name: string }).name),
    ).toEqual(['missed-1', 'missed-2', 'live']);
  });

  it('sends one reset when the id is before the log’s horizon, then live changes', async () => {
    const repository = await sqlite.create();
    const server = await start({ repository });
    for (const name of ['a', 'b', 'c', 'd']) await put(server, name);
    // A restore moves the horizon to the head (4): a reader from before it re-lists.
    await repository.restoreRows({ configs: [], revisions: [] });
    const es = open(`${server.url}/events`, { 'Last-Event-ID': '1' });
    await es.opened;
    await put(server, 'e');
    await vi.waitFor(() => expect(es.events).toHaveLength(2));
    expect(es.events[0]).toEqual({ type: 'reset', id: '4', data: '{}' });
    expect(es.events[1]?.type).toBe('change');
    expect(es.events[1]?.id).toBe('5');
  });

  it('refuses a malformed Last-Event-ID with 400', async () => {
    const server = await start();
    const response = await fetch(`${server.url}/events?lastEventId=abc`);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error:
        'Last-Event-ID must be the decimal id of an event this server sent',
    });
  });

  it('answers other methods with 405', async () => {
    const server = await start();
    const response = await fetch(`${server.url}/events`, { method: 'POST' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET');
  });

  it('needs read access, like every read', async () => {
    const server = await start({ apiToken: 'write', readToken: 'read' });
    const denied = await fetch(`${server.url}/events`);
    expect(denied.status).toBe(401);
    const es = open(`${server.url}/events`, { Authorization: 'Bearer read' });
    await es.opened;
    await put(server, 'n', { Authorization: 'Bearer write' });
    await vi.waitFor(() => expect(es.events).toHaveLength(1));
  });

  it('answers CORS requests from an allowed origin', async () => {
    const server = await start({ corsOrigins: ['https://app.example'] });
    const { headers } = await readStream(`${server.url}/events`, {
      headers: { Origin: 'https://app.example' },
      done: (t) => t.includes(': connected'),
    });
    expect(headers.get('access-control-allow-origin')).toBe(
      'https://app.example',
    );
  });

  it('answers 503 with Retry-After over the stream cap, and takes streams again once one closes', async () => {
    const server = await start({ eventsMaxStreams: 1 });
    const es = open(`${server.url}/events`);
    await es.opened;
    const refused = await fetch(`${server.url}/events`);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(((await refused.json()) as { error: string }).error).toMatch(
      /too many open event streams/,
    );
    es.close();
    await vi.waitFor(() => expect(server.services.changes.openStreams).toBe(0));
    expect(
      (await fetch(`${server.url}/events`, { method: 'HEAD' })).status,
    ).not.toBe(503);
  });

  it('sends heartbeat comments on an idle stream', async () => {
    const server = await start({ eventsHeartbeat: 50 });
    const { text } = await readStream(`${server.url}/events`, {
      done: (t) => t.includes(': heartbeat\n\n'),
    });
    expect(text).toContain(': heartbeat\n\n');
  });

  it('cuts off a consumer that stops reading, which then resumes by id', async () => {
    const repository = createMemoryConfigRepository();
    const server = await start({ repository, eventsBuffer: 4096 });
    const { port } = new URL(server.url);
    let cut = false;
    const response = await new Promise<IncomingMessage>((resolve) => {
      request({ host: '127.0.0.1', port, path: '/events' }, resolve).end();
    });
    response.pause();
    response.on('close', () => {
      cut = true;
    });
    response.on('error', () => undefined);
    await vi.waitFor(() => expect(server.services.changes.openStreams).toBe(1));
    // Fill the socket buffers and then the stream's queue: long names, many changes.
    const long = 'n'.repeat(240);
    for (let i = 0; server.services.changes.openStreams > 0; i++) {
      if (i > 200_000) throw new Error('the slow consumer was never cut off');
      await repository.put(`${long}${i}`, '{}');
      if (i % 200 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    }
    // A paused socket does not notice the hang-up until it reads again.
    response.resume();
    await vi.waitFor(() => expect(cut).toBe(true));
    const head = await repository.head();
    const { text } = await readStream(`${server.url}/events`, {
      headers: { 'Last-Event-ID': String(head - 1) },
      done: (t) => t.includes(`id: ${head}\n`),
    });
    expect(text).toContain(`"${long}`);
  });

  it('ends open streams on shutdown, without waiting for the grace period', async () => {
    const server = await startServer({
      port: 0,
      host: '127.0.0.1',
      seed: 'none',
      logger: pino({ level: 'silent' }),
      repository: createMemoryConfigRepository(),
    });
    const reading = readStream(`${server.url}/events`, { done: () => false });
    await vi.waitFor(() => expect(server.services.changes.openStreams).toBe(1));
    // A grace period longer than the test's timeout: close() must not wait for it.
    await server.close(120_000);
    expect((await reading).text).toContain(': connected');
  });
});

describe('configs.changes (tRPC subscription over SSE)', () => {
  const client = (server: RunningServer) =>
    createTRPCClient<AppRouter>({
      links: [httpSubscriptionLink({ url: `${server.url}/trpc`, EventSource })],
    });

  it('delivers tracked changes, and resumes after a lastEventId', async () => {
    const server = await start();
    const got: { id: string; data: unknown }[] = [];
    const subscription = client(server).configs.changes.subscribe(undefined, {
      onData: (event) => got.push(event),
    });
    await vi.waitFor(() => expect(server.services.changes.openStreams).toBe(1));
    const etag = (await put(server, 'a')).headers.get('etag');
    await del(server, 'a');
    await vi.waitFor(() => expect(got).toHaveLength(2));
    subscription.unsubscribe();
    expect(got[0]).toEqual({
      id: '1',
      data: {
        type: 'change',
        name: 'a',
        op: 'put',
        etag,
        updatedAt: expect.any(String),
      },
    });
    expect(got[1]?.data).toMatchObject({ type: 'change', op: 'delete' });

    const resumed: { id: string; data: unknown }[] = [];
    const again = client(server).configs.changes.subscribe(
      { lastEventId: '1' },
      { onData: (event) => resumed.push(event) },
    );
    await vi.waitFor(() => expect(resumed).toHaveLength(1));
    expect(resumed[0]?.id).toBe('2');
    again.unsubscribe();
    await vi.waitFor(() => expect(server.services.changes.openStreams).toBe(0));
  });

  it('needs read access: UNAUTHORIZED without a token, changes with one', async () => {
    const server = await start({ apiToken: 'write', readToken: 'read' });
    const denied = await new Promise<unknown>((resolve) => {
      client(server).configs.changes.subscribe(undefined, {
        onError: resolve,
      });
    });
    expect((denied as TRPCClientError<AppRouter>).data?.code).toBe(
      'UNAUTHORIZED',
    );
    const withToken = createTRPCClient<AppRouter>({
      links: [
        httpSubscriptionLink({
          url: `${server.url}/trpc`,
          EventSource,
          // The `eventsource` package takes a fetch, so it can send the bearer token.
          eventSourceOptions: {
            fetch: (input, init) =>
              fetch(input, {
                ...init,
                headers: { ...init?.headers, Authorization: 'Bearer read' },
              }),
          },
        }),
      ],
    });
    const got: unknown[] = [];
    const subscription = withToken.configs.changes.subscribe(undefined, {
      onData: (event) => got.push(event),
    });
    await vi.waitFor(() => expect(server.services.changes.openStreams).toBe(1));
    await put(server, 'n', { Authorization: 'Bearer write' });
    await vi.waitFor(() => expect(got).toHaveLength(1));
    subscription.unsubscribe();
  });

  it('sends a reset message when the id is before the log’s horizon', async () => {
    const repository = await sqlite.create();
    const server = await start({ repository });
    for (const name of ['a', 'b', 'c']) await put(server, name);
    await repository.restoreRows({ configs: [], revisions: [] });
    const got: { id: string; data: unknown }[] = [];
    const subscription = client(server).configs.changes.subscribe(
      { lastEventId: '1' },
      { onData: (event) => got.push(event) },
    );
    await vi.waitFor(() => expect(got).toHaveLength(1));
    expect(got[0]).toEqual({ id: '3', data: { type: 'reset' } });
    subscription.unsubscribe();
  });
});
