import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChangeEvent } from './change-event.js';
import type { ChangeFeed, FeedState } from './change-feed.js';
import type { RemoteStoreError } from './remote-store-error.js';
import { createRemoteStore } from './remote-store.js';

/** A tiny server that speaks the feed protocol, scripted per connection. */
interface FeedServer {
  url: string;
  /** Request headers of every connection, in order. */
  connections: IncomingMessage['headers'][];
  /** Decides how the next connection is answered. */
  onConnect: (req: IncomingMessage, res: ServerResponse) => void;
  /** Open streams, to write to or end. */
  streams: ServerResponse[];
}

function sseHead(res: ServerResponse): void {
  res.writeHead(200, {
    'Content-Type': 'text/event-stream',
    'Cache-Control': 'no-cache',
  });
  res.write(': hello\n\n');
}

const change = (id: number, name: string, op = 'put') =>
  `id: ${id}\nevent: change\ndata: ${JSON.stringify({
    name,
    op,
    etag: op === 'put' ? `"e${id}"` : null,
    updatedAt: '2030-01-01T00:00:00.000Z',
  })}\n\n`;

describe('watchChanges (SSE change feed)', () => {
  let server: Server;
  let feedServer: FeedServer;
  let feed: ChangeFeed | undefined;

  beforeEach(async () => {
    const state: FeedServer = {
      url: '',
      connections: [],
      streams: [],
      onConnect: (_req, res) => sseHead(res),
    };
    server = createServer((req, res) => {
      state.connections.push(req.headers);
      state.streams.push(res);
      state.onConnect(req, res);
    });
    await new Promise<void>((resolve) =>
      server.listen(0, '127.0.0.1', resolve),
    );
    state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    feedServer = state;
  });

  afterEach(async () => {
    feed?.close();
    for (const res of feedServer.streams) res.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  function watch(token?: string) {
    const events: ChangeEvent[] = [];
    const states: FeedState[] = [];
    const errors: RemoteStoreError[] = [];
    let resets = 0;
    const store = createRemoteStore({ baseUrl: feedServer.url, token });
    feed = store.watchChanges({
      onChange: (event) => events.push(event),
      onReset: () => resets++,
      onState: (s) => states.push(s),
      onError: (e) => errors.push(e),
      backoff: { baseMs: 5, capMs: 20 },
    });
    return { events, states, errors, resets: () => resets };
  }

  it('delivers change events with their ids, and sends the token', async () => {
    const seen = watch('s3cret');
    await vi.waitFor(() => expect(seen.states).toContain('connected'));
    const res = feedServer.streams[0];
    res?.write(change(1, 'a'));
    res?.write(change(2, 'b', 'delete'));
    await vi.waitFor(() => expect(seen.events).toHaveLength(2));
    expect(seen.events[0]).toEqual({
      id: '1',
      name: 'a',
      op: 'put',
      etag: '"e1"',
      updatedAt: '2030-01-01T00:00:00.000Z',
    });
    expect(seen.events[1]).toMatchObject({ id: '2', op: 'delete', etag: null });
    expect(feed?.lastEventId).toBe('2');
    expect(feedServer.connections[0]?.['authorization']).toBe('Bearer s3cret');
    expect(feedServer.connections[0]?.['accept']).toBe('text/event-stream');
  });

  it('reassembles an event split across chunks and ignores malformed ones', async () => {
    const seen = watch();
    await vi.waitFor(() => expect(seen.states).toContain('connected'));
    const res = feedServer.streams[0];
    res?.write('id: 1\nevent: change\ndata: {"name":"x","op":"pu');
    res?.write('t","etag":"\\"e\\"","updatedAt":"t"}\n\n');
    res?.write('id: 2\nevent: change\ndata: {"name":5}\n\n');
    res?.write(change(3, 'y'));
    await vi.waitFor(() =>
      expect(seen.events.map((e) => e.name)).toEqual(['x', 'y']),
    );
    expect(feed?.lastEventId).toBe('3');
  });

  it('reconnects after a drop and resumes with Last-Event-ID', async () => {
    const seen = watch();
    await vi.waitFor(() => expect(seen.states).toContain('connected'));
    feedServer.streams[0]?.end(change(7, 'a'));
    await vi.waitFor(() => expect(feedServer.connections).toHaveLength(2));
    expect(feedServer.connections[1]?.['last-event-id']).toBe('7');
    await vi.waitFor(() =>
      expect(seen.states).toEqual([
        'connected',
        'disconnected',
        'connecting',
        'connected',
      ]),
    );
    feedServer.streams[1]?.write(change(8, 'b'));
    await vi.waitFor(() =>
      expect(seen.events.map((e) => e.id)).toEqual(['7', '8']),
    );
  });

  it('passes a reset on, keeping its id as the resume point', async () => {
    const seen = watch();
    await vi.waitFor(() => expect(seen.states).toContain('connected'));
    feedServer.streams[0]?.write('id: 40\nevent: reset\ndata: {}\n\n');
    await vi.waitFor(() => expect(seen.resets()).toBe(1));
    expect(feed?.lastEventId).toBe('40');
  });

  it('reconnects after a 503 and reports the failure once', async () => {
    let refusals = 2;
    feedServer.onConnect = (_req, res) => {
      if (refusals-- > 0) {
        res.writeHead(503, { 'Content-Type': 'application/json' });
        res.end('{"error":"too many streams"}');
      } else sseHead(res);
    };
    const seen = watch();
    await vi.waitFor(() => expect(seen.states).toContain('connected'));
    expect(feedServer.connections).toHaveLength(3);
    expect(seen.errors.map((e) => e.status)).toEqual([503]);
  });

  it('keeps retrying after 401 so that a new token can be picked up', async () => {
    feedServer.onConnect = (req, res) => {
      if (req.headers['authorization'] !== 'Bearer good') {
        res.writeHead(401, { 'Content-Type': 'application/json' });
        res.end('{"error":"missing bearer token"}');
      } else sseHead(res);
    };
    let token = 'bad';
    const states: FeedState[] = [];
    const errors: RemoteStoreError[] = [];
    feed = createRemoteStore({
      baseUrl: feedServer.url,
      token: () => token,
    }).watchChanges({
      onChange: () => undefined,
      onState: (s) => states.push(s),
      onError: (e) => errors.push(e),
      backoff: { baseMs: 5, capMs: 20 },
    });
    await vi.waitFor(() =>
      expect(feedServer.connections.length).toBeGreaterThan(2),
    );
    expect(states).not.toContain('connected');
    expect(errors.map((e) => e.status)).toEqual([401]);
    token = 'good';
    await vi.waitFor(() => expect(states).toContain('connected'));
  });

  it('reconnects when the stream goes silent longer than the idle limit', async () => {
    const store = createRemoteStore({ baseUrl: feedServer.url });
    feed = store.watchChanges({
      onChange: () => undefined,
      idleTimeoutMs: 100,
      backoff: { baseMs: 5, capMs: 20 },
    });
    await vi.waitFor(() =>
      expect(feedServer.connections.length).toBeGreaterThan(1),
    );
  });

  it('stops for good on close', async () => {
    const seen = watch();
    await vi.waitFor(() => expect(seen.states).toContain('connected'));
    feed?.close();
    feedServer.streams[0]?.write(change(1, 'late'));
    await new Promise((r) => setTimeout(r, 50));
    expect(seen.events).toEqual([]);
    expect(feedServer.connections).toHaveLength(1);
  });
});

describe('watchChanges timing', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('never reconnects before the Retry-After of a refusal', async () => {
    const attempts: number[] = [];
    const fetch = async () => {
      attempts.push(Date.now());
      return new Response('{"error":"too many streams"}', {
        status: 503,
        headers: { 'Retry-After': '2' },
      });
    };
    const feed = createRemoteStore({
      baseUrl: 'http://api.test',
      fetch: fetch as typeof globalThis.fetch,
    }).watchChanges({
      onChange: () => undefined,
      backoff: { baseMs: 10, capMs: 10, random: () => 0 },
    });
    await vi.advanceTimersByTimeAsync(1999);
    expect(attempts).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(attempts).toHaveLength(2);
    feed.close();
  });
});
