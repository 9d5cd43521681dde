import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FetchEventSource } from './fetch-event-source.js';

const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/** A server answering each request with `answer(n)` (n counts from 1); records request headers. */
async function serve(
  answer: (n: number) => { status: number; type: string; body: string },
) {
  const requests: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    requests.push(req.headers);
    const { status, type, body } = answer(requests.length);
    res.writeHead(status, { 'Content-Type': type });
    res.end(body);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/sse`, requests };
}

describe('FetchEventSource', () => {
  it('sends its headers, dispatches events by type and reconnects with Last-Event-ID', async () => {
    const { url, requests } = await serve((n) => ({
      status: 200,
      type: 'text/event-stream',
      body: `retry: 10\nid: ${n}\nevent: ping\ndata: {"n":${n}}\n\n`,
    }));
    const source = new FetchEventSource(url, {
      headers: { Authorization: 'Bearer t' },
    });
    const got: { data: string; id: string }[] = [];
    source.addEventListener('ping', (event) => {
      const message = event as MessageEvent<string>;
      got.push({ data: message.data, id: message.lastEventId });
    });
    await vi.waitFor(() => expect(got.length).toBeGreaterThanOrEqual(2));
    source.close();
    expect(got.slice(0, 2)).toEqual([
      { data: '{"n":1}', id: '1' },
      { data: '{"n":2}', id: '2' },
    ]);
    expect(requests[0]?.authorization).toBe('Bearer t');
    expect(requests[0]?.['last-event-id']).toBeUndefined();
    expect(requests[1]?.['last-event-id']).toBe('1');
    expect(source.readyState).toBe(FetchEventSource.CLOSED);
  });

  it('gives up on an answer that is not an event stream', async () => {
    const { url, requests } = await serve(() => ({
      status: 401,
      type: 'application/json',
      body: '{}',
    }));
    const source = new FetchEventSource(url);
    const errors: Event[] = [];
    source.addEventListener('error', (event) => errors.push(event));
    await vi.waitFor(() => expect(errors).toHaveLength(1));
    expect(source.readyState).toBe(FetchEventSource.CLOSED);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(requests).toHaveLength(1);
  });
});
