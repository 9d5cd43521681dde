import { afterAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../src/http/app.js';
import type { AppOptions } from '../src/http/app.js';
import { createLogger } from '../src/logger.js';
import { createServices } from '../src/services/services.js';
import { startServer } from '../src/start-server.js';
import type { RunningServer } from '../src/start-server.js';
import { createMemoryConfigRepository } from '../src/storage/memory/memory-config-repository.js';
import type { ConfigRepository } from '../src/storage/config-repository.js';

type Line = Record<string, unknown>;

/** A logger as `main.ts` makes it, whose JSON lines land in `lines`. */
function capturedLogger() {
  const lines: Line[] = [];
  const logger = createLogger('info', {
    write: (text: string) => {
      lines.push(JSON.parse(text) as Line);
    },
  });
  return { lines, logger };
}

function appWithLog(options: Partial<AppOptions> = {}) {
  const { lines, logger } = capturedLogger();
  const app = createApp({
    services: createServices({ repository: createMemoryConfigRepository() }),
    logger,
    ...options,
  });
  const request = (path: string, init?: RequestInit) =>
    app.request(`http://localhost${path}`, init);
  return { lines, request };
}

const UUID =
  /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('request ids', () => {
  it('echoes a well-formed X-Request-Id', async () => {
    const { request } = appWithLog();
    const response = await request('/configs', {
      headers: { 'X-Request-Id': 'edge-7f3a:2026.03_01-x' },
    });
    expect(response.headers.get('x-request-id')).toBe('edge-7f3a:2026.03_01-x');
  });

  it.each([
    ['too long', 'a'.repeat(129)],
    ['with a space', 'two words'],
    ['with a quote', 'id"; drop'],
    ['empty', ''],
  ])('replaces an id that is %s with a new UUID', async (_, given) => {
    const { request } = appWithLog();
    const response = await request('/configs', {
      headers: { 'X-Request-Id': given },
    });
    expect(response.headers.get('x-request-id')).toMatch(UUID);
  });

  it('gives every response an id, errors and other routes included', async () => {
    const { request } = appWithLog();
    const answers = await Promise.all([
      request('/configs'),
      request('/no/such/route'),
      request('/configs/x', { method: 'PATCH' }),
      request('/healthz'),
      request('/docs'),
      request('/openapi.json'),
      request('/configs/x', {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body: '{not json',
      }),
    ]);
    const ids = answers.map((r) => r.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('access log', () => {
  it('writes one line per request with the id, route, status and sizes, and ISO times', async () => {
    const { lines, request } = appWithLog();
    const body = JSON.stringify({ allLinks: { a: { url: 'https://a.test' } } });
    await request('/configs/team-a', {
      method: 'PUT',
      headers: {
        'Content-Type': 'application/json',
        'Content-Length': String(body.length),
        'User-Agent': 'sync-job/1.2',
        'X-Request-Id': 'put-1',
      },
      body,
    });
    const line = lines.find((l) => l['reqId'] === 'put-1');
    expect(line).toMatchObject({
      msg: 'request',
      level: 30,
      reqId: 'put-1',
      method: 'PUT',
      route: '/configs/:name',
      path: '/configs/team-a',
      status: 204,
      bytesIn: body.length,
      ua: 'sync-job/1.2',
      addr: 'unknown',
    });
    expect(typeof line?.['ms']).toBe('number');
    expect(line?.['time']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('logs neither bodies nor tokens nor query strings', async () => {
    const { lines, request } = appWithLog({ auth: { apiToken: 'tok-SECRET' } });
    await request('/configs/x', {
      method: 'PUT',
      headers: {
        Authorization: 'Bearer tok-SECRET',
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ allLinks: { a: { label: 'BODY-SECRET' } } }),
    });
    await request('/search?q=QUERY-SECRET', {
      headers: { Authorization: 'Bearer wrong-SECRET' },
    });
    const text = JSON.stringify(lines);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(text).not.toContain('SECRET');
  });

  it('puts the request id on the error line of a 500, and in the answer header', async () => {
    const { lines, logger } = capturedLogger();
    const broken: ConfigRepository = Object.assign(
      Object.create(createMemoryConfigRepository()),
      { listVersions: () => Promise.reject(new Error('disk on fire')) },
    ) as ConfigRepository;
    const app = createApp({
      services: createServices({ repository: broken }),
      logger,
    });
    const response = await app.request('http://localhost/configs', {
      headers: { 'X-Request-Id': 'trace-500' },
    });
    expect(response.status).toBe(500);
    expect(response.headers.get('x-request-id')).toBe('trace-500');
    const failure = lines.find((l) => l['level'] === 50);
    expect(failure).toMatchObject({
      reqId: 'trace-500',
      msg: 'request failed',
    });
    expect(JSON.stringify(failure)).toContain('disk on fire');
    expect(lines.find((l) => l['msg'] === 'request')).toMatchObject({
      reqId: 'trace-500',
      status: 500,
    });
  });

  // The access layer runs in the same layer of Hono's chain as the access line: a failure of its own
  // (here storage cannot say whether keys exist) is still answered with the id and still logged.
  it('answers and logs a failure of the access check itself, with the id', async () => {
    const { lines, logger } = capturedLogger();
    const repository = createMemoryConfigRepository();
    const broken: ConfigRepository = Object.assign(Object.create(repository), {
      keys: Object.assign(Object.create(repository.keys), {
        hasAny: () => Promise.reject(new Error('keys on fire')),
      }),
    }) as ConfigRepository;
    const app = createApp({
      services: createServices({ repository: broken }),
      logger,
    });
    const response = await app.request('http://localhost/configs', {
      headers: { 'X-Request-Id': 'trace-access' },
    });
    expect(response.status).toBe(500);
    expect(response.headers.get('x-request-id')).toBe('trace-access');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await response.json()).toEqual({ error: expect.any(String) });
    expect(lines.find((l) => l['msg'] === 'request')).toMatchObject({
      reqId: 'trace-access',
      status: 500,
    });
  });

  it('can be switched off', async () => {
    const { lines, request } = appWithLog({ accessLog: false });
    await request('/configs');
    expect(lines.filter((l) => l['msg'] === 'request')).toEqual([]);
  });
});

describe('access log over a real socket', () => {
  const servers: RunningServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close(100)));
  });

  const start = async (trustProxy: number) => {
    const { lines, logger } = capturedLogger();
    const server = await startServer({
      repository: createMemoryConfigRepository(),
      logger,
      port: 0,
      host: '127.0.0.1',
      seed: 'none',
      appDir: '/nonexistent',
      trustProxy,
    });
    servers.push(server);
    return { lines, server };
  };
  const accessLine = (lines: Line[], id: string) =>
    vi.waitFor(() => {
      const line = lines.find(
        (l) => l['msg'] === 'request' && l['reqId'] === id,
      );
      if (line === undefined) throw new Error(`no access line for ${id} yet`);
      return line;
    });

  it('reports the peer address and the bytes sent on the socket', async () => {
    const { lines, server } = await start(0);
    const response = await fetch(`${server.url}/openapi.json`, {
      headers: { 'X-Request-Id': 'sock-1', 'X-Forwarded-For': '203.0.113.7' },
    });
    const sent = (await response.arrayBuffer()).byteLength;
    const line = await accessLine(lines, 'sock-1');
    // Without trusted proxies, X-Forwarded-For is anybody's say-so and is ignored.
    expect(line['addr']).toMatch(/127\.0\.0\.1$/);
    // The body, plus the status line and headers.
    expect(line['bytesOut']).toBeGreaterThan(sent);
    expect(line['bytesOut']).toBeLessThan(sent + 2048);
    expect(line['route']).toBe('/openapi.json');
  });

  it('takes the client address from X-Forwarded-For behind a trusted proxy', async () => {
    const { lines, server } = await start(1);
    await fetch(`${server.url}/healthz`, {
      headers: {
        'X-Request-Id': 'sock-2',
        'X-Forwarded-For': '198.51.100.9, 203.0.113.7',
      },
    });
    // One trusted hop: the proxy appended the address it saw, the rightmost entry.
    expect((await accessLine(lines, 'sock-2'))['addr']).toBe('203.0.113.7');
  });
});
