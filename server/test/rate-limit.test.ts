import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/http/app.js';
import type { AppOptions } from '../src/http/app.js';
import { Metrics } from '../src/http/metrics.js';
import { createServices } from '../src/services/services.js';
import { startServer } from '../src/start-server.js';
import type { RunningServer } from '../src/start-server.js';
import { createMemoryConfigRepository } from '../src/storage/memory/memory-config-repository.js';
import { sampleConfig } from './test-app.js';

const JSON_HEADERS = { 'Content-Type': 'application/json' };

/**
 * An app with small budgets (3 writes, 2 expensive reads per client, refilling at 1 per second) and a
 * clock the test moves. Requests come from the address given, as if over a socket.
 */
function limitedApp(options: Partial<AppOptions> = {}) {
  let clock = 0;
  const metrics = new Metrics({ processMetrics: false });
  const app = createApp({
    services: createServices({ repository: createMemoryConfigRepository() }),
    logger: pino({ level: 'silent' }),
    metrics,
    rateLimit: {
      writes: { perSecond: 1, burst: 3 },
      reads: { perSecond: 1, burst: 2 },
      now: () => clock,
    },
    ...options,
  });
  const from =
    (address: string) =>
    async (path: string, init: RequestInit = {}): Promise<Response> =>
      app.request(`http://localhost${path}`, init, {
        incoming: { socket: { remoteAddress: address } },
      });
  return {
    from,
    metrics,
    advance: (ms: number) => {
      clock += ms;
    },
  };
}

const put = (name: string, headers: Record<string, string> = {}) => ({
  method: 'PUT',
  headers: { ...JSON_HEADERS, ...headers },
  body: JSON.stringify(sampleConfig()),
});
const query = {
  method: 'POST',
  headers: JSON_HEADERS,
  body: JSON.stringify({ expression: '.x', configName: 'c' }),
};

describe('rate limits', () => {
  it('answers 429 with Retry-After and { error } once a client spent its write burst', async () => {
    const { from } = limitedApp();
    const client = from('10.0.0.1');
    const statuses = [];
    for (const name of ['a', 'b', 'c', 'd'])
      statuses.push((await client(`/configs/${name}`, put(name))).status);
    expect(statuses).toEqual([204, 204, 204, 429]);
    const refused = await client('/configs/e', { method: 'DELETE' });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.headers.get('x-request-id')).not.toBeNull();
    expect(await refused.json()).toEqual({
      error: 'too many writes from this client; retry in 1 s',
    });
  });

  it('leaves cheap reads, the other budget and other clients unaffected', async () => {
    const { from } = limitedApp();
    const busy = from('10.0.0.1');
    for (const name of ['a', 'b', 'c', 'd'])
      await busy(`/configs/${name}`, put(name));
    expect((await busy('/configs/z', put('z'))).status).toBe(429);
    // The same client still reads, and still has its expensive-read budget.
    expect((await busy('/configs')).status).toBe(200);
    expect((await busy('/configs/a')).status).toBe(200);
    expect((await busy('/healthz')).status).toBe(200);
    expect((await busy('/search?q=bravo')).status).toBe(200);
    // Another client still writes.
    expect(
      (await from('10.0.0.2')('/configs/other', put('other'))).status,
    ).toBe(204);
  });

  it('gives the budget back as time passes', async () => {
    const { from, advance } = limitedApp();
    const client = from('10.0.0.1');
    for (const name of ['a', 'b', 'c'])
      await client(`/configs/${name}`, put(name));
    expect((await client('/configs/d', put('d'))).status).toBe(429);
    advance(1000);
    expect((await client('/configs/d', put('d'))).status).toBe(204);
    expect((await client('/configs/e', put('e'))).status).toBe(429);
  });

  it('limits the expensive reads: /query, /search, /cherry-pick', async () => {
    const { from } = limitedApp();
    const client = from('10.0.0.1');
    expect((await client('/configs/c', put('c'))).status).toBe(204);
    expect((await client('/query', query)).status).toBe(200);
    expect((await client('/search?q=x')).status).toBe(200);
    const cherry = await client('/cherry-pick', {
      method: 'POST',
      headers: JSON_HEADERS,
      body: JSON.stringify({ source: sampleConfig(), expression: '.x' }),
    });
    expect(cherry.status).toBe(429);
    expect(await cherry.json()).toEqual({
      error: 'too many expensive reads from this client; retry in 1 s',
    });
    // Cheap reads of the same client go on.
    expect((await client('/configs/c')).status).toBe(200);
  });

  it('charges the tRPC twins to the same budgets, per procedure in a batch', async () => {
    const { from } = limitedApp();
    const client = from('10.0.0.1');
    expect((await client('/configs/a', put('a'))).status).toBe(204);
    // Two writes in one batch take the last two tokens.
    const batch = await client('/trpc/configs.put,configs.remove?batch=1', {
      method: 'POST',
      headers: JSON_HEADERS,
      body: JSON.stringify({
        0: { name: 'b', config: sampleConfig() },
        1: { name: 'a' },
      }),
    });
    expect(batch.status).toBe(200);
    const more = await client('/trpc/configs.put', {
      method: 'POST',
      headers: JSON_HEADERS,
      body: JSON.stringify({ name: 'c', config: sampleConfig() }),
    });
    expect(more.status).toBe(429);
    expect(more.headers.get('retry-after')).toBe('1');
    // A read procedure is not charged.
    expect((await client('/trpc/configs.list')).status).toBe(200);
    expect((await client('/configs/z', put('z'))).status).toBe(429);
  });

  it('charges /trpc calls however the path is written: trailing slash, %2C between batched names (issue 17, item 2)', async () => {
    const { from } = limitedApp();
    const client = from('10.0.0.1');
    const trpcPut = (path: string) =>
      client(path, {
        method: 'POST',
        headers: JSON_HEADERS,
        body: JSON.stringify({ name: 'p', config: sampleConfig() }),
      });
    // tRPC trims the slash: each of these is a write.
    for (let i = 0; i < 3; i++)
      expect((await trpcPut('/trpc/configs.put/')).status).toBe(200);
    expect((await trpcPut('/trpc/configs.put/')).status).toBe(429);
    // tRPC decodes before it splits a batch: two expensive reads, the whole read burst.
    const twoQueries = JSON.stringify({
      0: { expression: '.x', configName: 'p' },
      1: { expression: '.x', configName: 'p' },
    });
    const batch = await client(
      '/trpc/expressions.query%2Cexpressions.query/?batch=1',
      { method: 'POST', headers: JSON_HEADERS, body: twoQueries },
    );
    expect(batch.status).toBe(200);
    const more = await client('/trpc/expressions.query?batch=1', {
      method: 'POST',
      headers: JSON_HEADERS,
      body: JSON.stringify({ 0: { expression: '.x', configName: 'p' } }),
    });
    expect(more.status).toBe(429);
  });

  it('refuses (400) a tRPC batch of more limited calls than the burst, charging nothing (issue 29, item 4)', async () => {
    const { from } = limitedApp();
    const client = from('10.0.0.1');
    expect((await client('/configs/p', put('p'))).status).toBe(204);
    const queries = (n: number) =>
      client(
        `/trpc/${Array.from({ length: n }, () => 'expressions.query').join(',')}?batch=1`,
        {
          method: 'POST',
          headers: JSON_HEADERS,
          body: JSON.stringify(
            Object.fromEntries(
              Array.from({ length: n }, (_, i) => [
                i,
                { expression: '.x', configName: 'p' },
              ]),
            ),
          ),
        },
      );
    // 800 expensive reads against a burst of 2: once charged as 2, so a client made 800 a burst.
    for (const n of [800, 3]) {
      const refused = await queries(n);
      expect(refused.status).toBe(400);
      expect(await refused.json()).toEqual({
        error: `this batch makes ${n} expensive reads; a batch may make at most 2 (the burst of this budget): send it in parts`,
      });
    }
    // Writes are counted apart: two writes and three reads are refused for the reads, nothing spent.
    const mixed = await client(
      '/trpc/configs.put,expressions.query,expressions.query,expressions.query?batch=1',
      { method: 'POST', headers: JSON_HEADERS, body: '{}' },
    );
    expect(mixed.status).toBe(400);
    // Nothing was charged: the whole burst is still there, then spent.
    expect((await queries(2)).status).toBe(200);
    expect((await queries(1)).status).toBe(429);
    expect((await client('/configs/q', put('q'))).status).toBe(204);
    expect((await client('/configs/r', put('r'))).status).toBe(204);
  });

  it('keys on a valid token wherever it comes from, and on the address for anything else', async () => {
    const { from } = limitedApp({
      auth: { apiToken: 'writer-token', readToken: 'reader-token' },
    });
    const auth = { Authorization: 'Bearer writer-token' };
    // One token, three addresses: one budget.
    for (const address of ['10.0.0.1', '10.0.0.2', '10.0.0.3'])
      expect((await from(address)('/configs/a', put('a', auth))).status).toBe(
        204,
      );
    expect((await from('10.0.0.4')('/configs/a', put('a', auth))).status).toBe(
      429,
    );
    // Made-up tokens from one address share that address's budget: inventing tokens buys nothing.
    const guesser = from('10.0.0.9');
    const statuses = [];
    for (const guess of ['g1', 'g2', 'g3', 'g4'])
      statuses.push(
        (
          await guesser(
            '/configs/a',
            put('a', { Authorization: `Bearer ${guess}` }),
          )
        ).status,
      );
    expect(statuses).toEqual([401, 401, 401, 429]);
  });

  it('puts CORS headers on a 429, and never limits preflights', async () => {
    const { from } = limitedApp();
    const client = from('10.0.0.1');
    const origin = { Origin: 'https://page.example' };
    for (const name of ['a', 'b', 'c'])
      await client(`/configs/${name}`, put(name));
    const refused = await client('/configs/d', put('d', origin));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
    expect(refused.headers.get('access-control-expose-headers')).toMatch(
      /Retry-After/i,
    );
    const preflight = await client('/configs/d', {
      method: 'OPTIONS',
      headers: {
        ...origin,
        'Access-Control-Request-Method': 'PUT',
      },
    });
    expect(preflight.status).toBe(204);
  });

  it('counts refusals in the metrics', async () => {
    const { from, metrics } = limitedApp();
    const client = from('10.0.0.1');
    for (const name of ['a', 'b', 'c', 'd', 'e'])
      await client(`/configs/${name}`, put(name));
    const { body } = await metrics.render();
    expect(body).toContain('linkconfig_rate_limited_total{budget="writes"} 2');
    expect(body).toContain(
      'linkconfig_http_requests_total{method="PUT",route="/configs/:name",status="429"} 2',
    );
  });

  it('is off without a rateLimit option', async () => {
    const { from } = limitedApp({ rateLimit: undefined });
    const client = from('10.0.0.1');
    for (let i = 0; i < 10; i++)
      expect((await client(`/configs/n${i}`, put(`n${i}`))).status).toBe(204);
  });
});

describe('rate limits on a running server', () => {
  const servers: RunningServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close(100)));
  });

  const start = async (options: Parameters<typeof startServer>[0]) => {
    const server = await startServer({
      repository: createMemoryConfigRepository(),
      logger: pino({ level: 'silent' }),
      port: 0,
      host: '127.0.0.1',
      seed: 'none',
      appDir: '/nonexistent',
      ...options,
    });
    servers.push(server);
    return server;
  };

  it('are on by default, and a burst past the limit gets 429 while health checks pass', async () => {
    const server = await start({
      rateLimitWrites: 0.001,
      rateLimitWriteBurst: 5,
    });
    const statuses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        fetch(`${server.url}/configs/burst-${i}`, put(`burst-${i}`)).then(
          (r) => r.status,
        ),
      ),
    );
    expect(statuses.filter((s) => s === 204)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(3);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${server.url}/configs`)).status).toBe(200);
  });

  it('can be switched off', async () => {
    const server = await start({
      rateLimit: false,
      rateLimitWrites: 0.001,
      rateLimitWriteBurst: 1,
    });
    const statuses = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        fetch(`${server.url}/configs/free-${i}`, put(`free-${i}`)).then(
          (r) => r.status,
        ),
      ),
    );
    expect(statuses).toEqual([204, 204, 204, 204]);
  });
});
