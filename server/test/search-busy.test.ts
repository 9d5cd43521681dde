/**
 * Issue 33 (memory at 10,000 configs): a search that must read configs from storage while the scan
 * permits' queue is full is answered 503 with `Retry-After` and the error body, over REST and tRPC;
 * one over cached versions is answered as always.
 */
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { EVENT_LOOP_SLICES } from '../src/event-loop.js';
import { createApp } from '../src/http/app.js';
import { Metrics } from '../src/http/metrics.js';
import { Permits } from '../src/permits.js';
import { SearchService } from '../src/services/search-service.js';
import { createServices } from '../src/services/services.js';
import { createMemoryConfigRepository } from '../src/storage/memory/memory-config-repository.js';

const config = (word: string) => ({
  allLinks: { a: { url: 'https://example.com/a', label: `${word} a` } },
});

/** An app whose searches share one permit and no waiting place, with `held` holding the permit. */
async function busyApp() {
  const repository = createMemoryConfigRepository();
  const writer = createServices({ repository });
  await writer.configs.put('cold', config('harbor'));
  await writer.configs.put('warm', config('harbor'));
  // Another server over the same data: nothing cached yet but what it reads below.
  const services = createServices({ repository });
  await services.configs.current('warm');
  const permits = new Permits(1, 0);
  (services as { search: SearchService }).search = new SearchService(
    services.configs,
    EVENT_LOOP_SLICES,
    { summaries: services.caches.summaries, scans: permits },
  );
  const held = await permits.acquire();
  const app = createApp({
    services,
    logger: pino({ level: 'silent' }),
    metrics: new Metrics({ processMetrics: false }),
  });
  return {
    request: (path: string) => app.request(`http://localhost${path}`),
    held,
  };
}

describe('a search whose scan permits are all taken and whose queue is full', () => {
  it('is answered 503 with Retry-After and an error body over REST, and served once a permit is free', async () => {
    const { request, held } = await busyApp();
    const refused = await request('/search?q=harbor');
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('2');
    expect(await refused.json()).toEqual({
      error:
        'the server is busy with other searches over many configs; retry shortly',
    });
    // A search that reads only a cached version needs no permit.
    const warm = await request('/search?q=harbor&config=%5Ewarm%24');
    expect(warm.status).toBe(200);
    held?.();
    const served = await request('/search?q=harbor');
    expect(served.status).toBe(200);
    expect(await served.json()).toMatchObject({
      results: [{ configName: 'cold' }, { configName: 'warm' }],
    });
  });

  it('is answered SERVICE_UNAVAILABLE (503) with Retry-After over tRPC', async () => {
    const { request } = await busyApp();
    const input = encodeURIComponent(JSON.stringify({ q: 'harbor' }));
    const refused = await request(`/trpc/search.links?input=${input}`);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('2');
    expect(await refused.json()).toMatchObject({
      error: { data: { code: 'SERVICE_UNAVAILABLE' } },
    });
  });
});
