import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createApp } from '../src/http/app.js';
import type { AppOptions } from '../src/http/app.js';
import { Metrics } from '../src/http/metrics.js';
import { timeRepository } from '../src/http/repository-timing.js';
import { createServices } from '../src/services/services.js';
import { createMemoryConfigRepository } from '../src/storage/memory/memory-config-repository.js';
import type { ConfigRepository } from '../src/storage/config-repository.js';
import { sampleConfig } from './test-app.js';

const BASE = 'http://localhost';

/** An app with metrics; the repository's calls are timed as in `startServer`. */
function metricsApp(
  options: Partial<AppOptions> & { repository?: ConfigRepository } = {},
) {
  const metrics = new Metrics({ processMetrics: false });
  const repository = timeRepository(
    options.repository ?? createMemoryConfigRepository(),
    metrics,
  );
  const app = createApp({
    services: createServices({ repository }),
    logger: pino({ level: 'silent' }),
    metrics,
    ...options,
  });
  const request = (path: string, init?: RequestInit) =>
    app.request(`${BASE}${path}`, init);
  const scrape = async (headers: Record<string, string> = {}) => {
    const response = await request('/metrics', { headers });
    return { status: response.status, text: await response.text(), response };
  };
  return { app, metrics, request, scrape };
}

/** The value of one sample line, e.g. `name{a="b"} 3`, or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.split(' ').at(-1));
}

describe('GET /metrics', () => {
  it('counts requests by method, route pattern and status, never by raw path', async () => {
    const { request, scrape } = metricsApp();
    const put = (name: string) =>
      request(`/configs/${name}`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(sampleConfig()),
      });
    expect((await put('alpha')).status).toBe(204);
    expect((await put('beta')).status).toBe(204);
    expect((await request('/configs/alpha')).status).toBe(200);
    expect((await request('/configs/beta')).status).toBe(200);
    expect((await request('/configs/missing')).status).toBe(404);
    expect((await request('/configs')).status).toBe(200);

    const { status, text, response } = await scrape();
    expect(status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(text).toContain('# TYPE linkconfig_http_requests_total counter');
    expect(text).toContain(
      '# TYPE linkconfig_http_request_duration_seconds histogram',
    );
    const count = (method: string, route: string, status: number) =>
      sample(
        text,
        `linkconfig_http_requests_total{method="${method}",route="${route}",status="${status}"}`,
      );
    expect(count('PUT', '/configs/:name', 204)).toBe(2);
    expect(count('GET', '/configs/:name', 200)).toBe(2);
    expect(count('GET', '/configs/:name', 404)).toBe(1);
    expect(count('GET', '/configs', 200)).toBe(1);
    expect(
      sample(
        text,
        'linkconfig_http_request_duration_seconds_count{method="GET",route="/configs/:name",status="200"}',
      ),
    ).toBe(2);
    // The le="+Inf" bucket holds every observation.
    expect(
      sample(
        text,
        'linkconfig_http_request_duration_seconds_bucket{le="+Inf",method="PUT",route="/configs/:name",status="204"}',
      ),
    ).toBe(2);
    expect(text).not.toContain('alpha');
    expect(text).not.toContain('missing');
  });

  it('labels unknown paths with the catch-all pattern, so paths cannot multiply series', async () => {
    const { request, scrape } = metricsApp();
    for (const path of ['/nope/1', '/nope/2', '/nope/3'])
      expect((await request(path, { method: 'POST' })).status).toBe(404);
    const { text } = await scrape();
    expect(
      sample(
        text,
        'linkconfig_http_requests_total{method="POST",route="/*",status="404"}',
      ),
    ).toBe(3);
    expect(text).not.toContain('/nope');
  });

  it('times every repository call by operation', async () => {
    const { request, scrape } = metricsApp();
    await request('/configs/a', {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: '{"allLinks":{}}',
    });
    const { text } = await scrape();
    expect(
      sample(
        text,
        'linkconfig_db_query_duration_seconds_count{operation="put",outcome="ok"}',
      ),
    ).toBe(1);
  });

  it('records failing repository calls as errors', async () => {
    const broken = createMemoryConfigRepository();
    const fail = () => Promise.reject(new Error('disk on fire'));
    const failing: ConfigRepository = Object.assign(Object.create(broken), {
      list: fail,
      listVersions: fail,
    }) as ConfigRepository;
    const { request, scrape } = metricsApp({ repository: failing });
    expect((await request('/configs')).status).toBe(500);
    const { text } = await scrape();
    expect(
      sample(
        text,
        'linkconfig_db_query_duration_seconds_count{operation="listVersions",outcome="error"}',
      ),
    ).toBe(1);
    expect(
      sample(
        text,
        'linkconfig_http_requests_total{method="GET",route="/configs",status="500"}',
      ),
    ).toBe(1);
  });

  it('reads registered caches at scrape time', async () => {
    const { metrics, scrape } = metricsApp();
    let hits = 3;
    metrics.registerCache('configs', () => ({
      hits,
      misses: 1,
      entries: 2,
      bytes: 2048,
    }));
    const unregister = metrics.registerCache('responses', () => ({
      hits: 0,
      misses: 5,
      entries: 0,
      bytes: 0,
    }));
    let { text } = await scrape();
    expect(sample(text, 'linkconfig_cache_hits_total{cache="configs"}')).toBe(
      3,
    );
    expect(sample(text, 'linkconfig_cache_misses_total{cache="configs"}')).toBe(
      1,
    );
    expect(sample(text, 'linkconfig_cache_entries{cache="configs"}')).toBe(2);
    expect(sample(text, 'linkconfig_cache_bytes{cache="configs"}')).toBe(2048);
    expect(
      sample(text, 'linkconfig_cache_misses_total{cache="responses"}'),
    ).toBe(5);
    hits = 10;
    unregister();
    ({ text } = await scrape());
    expect(sample(text, 'linkconfig_cache_hits_total{cache="configs"}')).toBe(
      10,
    );
    expect(text).not.toContain('cache="responses"');
  });

  it('exposes a gauge of open event streams, read at scrape time', async () => {
    const { metrics, scrape } = metricsApp();
    let open = 2;
    metrics.countStreams(() => open);
    expect(sample((await scrape()).text, 'linkconfig_event_streams_open')).toBe(
      2,
    );
    open = 1;
    expect(sample((await scrape()).text, 'linkconfig_event_streams_open')).toBe(
      1,
    );
  });

  it('includes the process metrics', async () => {
    const metrics = new Metrics();
    const { body } = await metrics.render();
    expect(body).toContain('process_cpu_user_seconds_total');
    expect(body).toContain('nodejs_heap_size_used_bytes');
  });

  it('follows the read rules when no metrics token is set', async () => {
    const { scrape } = metricsApp({
      auth: { apiToken: 'write-token', readToken: 'read-token' },
    });
    expect((await scrape()).status).toBe(401);
    expect((await scrape({ Authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await scrape({ Authorization: 'Bearer read-token' })).status).toBe(
      200,
    );
    expect((await scrape({ Authorization: 'Bearer write-token' })).status).toBe(
      200,
    );
  });

  it('needs exactly the metrics token when one is set', async () => {
    const { scrape, request } = metricsApp({
      auth: { apiToken: 'write-token', readToken: 'read-token' },
      metricsToken: 'scrape-token',
    });
    const refused = await scrape({ Authorization: 'Bearer read-token' });
    expect(refused.status).toBe(401);
    expect(refused.response.headers.get('www-authenticate')).toBe('Bearer');
    expect(JSON.parse(refused.text)).toEqual({
      error: expect.stringMatching(/metrics token/),
    });
    expect((await scrape()).status).toBe(401);
    expect(
      (await scrape({ Authorization: 'Bearer scrape-token' })).status,
    ).toBe(200);
    // The metrics token opens nothing else.
    const read = await request('/configs', {
      headers: { Authorization: 'Bearer scrape-token' },
    });
    expect(read.status).toBe(401);
  });

  // CORS runs in the app's first layer; `/metrics`, mounted before CORS when CORS was a layer of its
  // own, answers a page's Origin without CORS headers, while the routes after it have them.
  it('answers a page without CORS headers, unlike the API routes', async () => {
    const { request } = metricsApp();
    const headers = { Origin: 'https://page.example' };
    const scraped = await request('/metrics', { headers });
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get('access-control-allow-origin')).toBeNull();
    const listed = await request('/configs', { headers });
    expect(listed.headers.get('access-control-allow-origin')).toBe('*');
    expect(listed.headers.get('x-request-id')).not.toBeNull();
    expect(listed.headers.get('x-frame-options')).toBe('DENY');
  });

  it('is absent when metrics are off', async () => {
    const app = createApp({
      services: createServices({ repository: createMemoryConfigRepository() }),
      logger: pino({ level: 'silent' }),
    });
    expect((await app.request(`${BASE}/metrics`)).status).toBe(404);
  });
});
