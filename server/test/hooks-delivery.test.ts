/**
 * Webhooks through a running server (issue 30): events of HTTP writes reach a receiver on 127.0.0.1,
 * signed; a receiver that never answers does not slow writes (write p99 with and without it, in the
 * same run, printed, never asserted: the machine decides the figures).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import type { CreateHookOutput, HookPayload } from '@linkconfig/shared';
import { verifySignature } from '../src/hooks/hook-signature.js';
import { OutboundAllowList } from '../src/outbound/index.js';
import { startServer } from '../src/start-server.js';
import type { RunningServer } from '../src/start-server.js';
import { startLoopbackServer } from './loopback-server.js';
import type { LoopbackServer } from './loopback-server.js';

const TOKEN = 'hooks-test-token';
const auth = { Authorization: `Bearer ${TOKEN}` };

let dir: string;
let receiver: LoopbackServer;
/** Accepts connections and never answers. */
let silent: {
  port: number;
  close: () => Promise<void>;
  accepted: () => number;
};
let server: RunningServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'linkconfig-hooks-'));
  receiver = await startLoopbackServer((_request, response) => {
    response.statusCode = 204;
    response.end();
  });
  const sockets: Socket[] = [];
  const net = createServer((socket) => {
    sockets.push(socket);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => net.listen(0, '127.0.0.1', resolve));
  silent = {
    port: (net.address() as AddressInfo).port,
    accepted: () => sockets.length,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        net.close(() => resolve());
      }),
  };
  server = await startServer({
    databaseUrl: join(dir, 'hooks.db'),
    logger: pino({ level: 'silent' }),
    port: 0,
    host: '127.0.0.1',
    seed: 'none',
    appDir: '/nonexistent',
    rateLimit: false,
    apiToken: TOKEN,
    outboundAllow: new OutboundAllowList([
      `127.0.0.1:${receiver.port}`,
      `127.0.0.1:${silent.port}`,
    ]),
    hookTimeoutMs: 2_000,
  });
});

afterAll(async () => {
  await server.close(100);
  await receiver.close();
  await silent.close();
  rmSync(dir, { recursive: true, force: true });
});

const put = (name: string, body: unknown): Promise<Response> =>
  fetch(`${server.url}/configs/${encodeURIComponent(name)}`, {
    method: 'PUT',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

async function addHook(body: unknown): Promise<CreateHookOutput> {
  const response = await fetch(`${server.url}/hooks`, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as CreateHookOutput;
}

async function until(done: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Times `count` PUTs one after another; the 99th percentile in ms. */
async function writeP99(prefix: string, count: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const response = await put(`${prefix}/${i}`, {
      allLinks: { a: { url: `https://example.com/${i}` } },
    });
    times.push(performance.now() - started);
    expect(response.status).toBe(204);
  }
  times.sort((a, b) => a - b);
  return times[Math.ceil(0.99 * times.length) - 1] ?? Number.NaN;
}

describe('webhooks through the server', () => {
  it('POSTs each write of the hook configs to the receiver, signed, with the log id', async () => {
    const hook = await addHook({
      url: `${receiver.origin}/hook`,
      events: ['change'],
      configs: ['site-a/*'],
    });
    expect((await put('site-b/menu', { allLinks: {} })).status).toBe(204);
    expect((await put('site-a/menu', { allLinks: {} })).status).toBe(204);
    await until(() => receiver.requests.length === 1);
    const [seen] = receiver.requests;
    const payload = JSON.parse(seen?.body ?? '{}') as HookPayload;
    expect(payload).toMatchObject({
      type: 'change',
      configs: ['site-a/menu'],
      data: { name: 'site-a/menu', op: 'put' },
    });
    expect(seen?.headers['linkconfig-event-id']).toBe(String(payload.id));
    expect(seen?.headers['user-agent']).toMatch(/^linkconfig\//);
    expect(
      verifySignature(
        hook.secret,
        {
          header: String(seen?.headers['linkconfig-signature']),
          body: seen?.body ?? '',
        },
        { nowS: Math.floor(Date.now() / 1000) },
      ),
    ).toBe(true);
  });

  it('a receiver that never answers does not slow writes (p99 printed, with and without, same run)', async () => {
    const without = await writeP99('plain', 200);
    for (let i = 0; i < 3; i++) {
      await addHook({
        url: `http://127.0.0.1:${silent.port}/never-${i}`,
        events: ['change'],
        configs: ['*'],
      });
    }
    const withSilent = await writeP99('silent', 200);
    // The hooks were really waiting on the silent receiver while the writes went on.
    await until(() => silent.accepted() >= 3);
    console.log(
      `[hooks] write p99 over 200 sequential PUTs (SQLite file): ${without.toFixed(2)} ms without hooks, ${withSilent.toFixed(2)} ms with 3 hooks to a receiver that never answers`,
    );
    expect(Number.isFinite(withSilent)).toBe(true);
  });
});
