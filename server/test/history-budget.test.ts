/**
 * Issue 29, item 2: the history reads spend the expensive-read budget, as searches and expressions do,
 * over REST and through their tRPC twins.
 */
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createApp } from '../src/http/app.js';
import { Metrics } from '../src/http/metrics.js';
import { createServices } from '../src/services/services.js';
import { createMemoryConfigRepository } from '../src/storage/memory/memory-config-repository.js';
import { sampleConfig } from './test-app.js';

/** An app with a budget of 2 expensive reads (refilling at 1 per second, on a clock that stands still). */
async function limitedApp() {
  const services = createServices({
    repository: createMemoryConfigRepository(),
  });
  await services.configs.put('c', sampleConfig());
  await services.configs.put('c', { ...sampleConfig(), settings: { a: 1 } });
  const app = createApp({
    services,
    logger: pino({ level: 'silent' }),
    metrics: new Metrics({ processMetrics: false }),
    rateLimit: {
      writes: { perSecond: 1, burst: 3 },
      reads: { perSecond: 1, burst: 2 },
      now: () => 0,
    },
  });
  return (address: string) =>
    async (path: string): Promise<Response> =>
      app.request(`http://localhost${path}`, undefined, {
        incoming: { socket: { remoteAddress: address } },
      });
}

describe('history reads spend the expensive-read budget (issue 29, item 2)', () => {
  it.each([
    '/configs/c/history?limit=1000',
    '/configs/c/revisions/1',
    '/configs/c/diff?from=1&to=2',
    '/history?limit=1000',
  ])('%s: 429 once the burst is spent', async (path) => {
    const client = (await limitedApp())('10.0.0.1');
    expect((await client(path)).status).toBe(200);
    expect((await client(path)).status).toBe(200);
    const refused = await client(path);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      error: 'too many expensive reads from this client; retry in 1 s',
    });
    // Cheap reads go on.
    expect((await client('/configs/c')).status).toBe(200);
  });

  it('charges the tRPC procedures to the same budget', async () => {
    const client = (await limitedApp())('10.0.0.2');
    const list = `/trpc/history.list?input=${encodeURIComponent(JSON.stringify({ name: 'c' }))}`;
    const diff = `/trpc/history.diff?input=${encodeURIComponent(JSON.stringify({ name: 'c', from: 1 }))}`;
    expect((await client(list)).status).toBe(200);
    expect((await client(diff)).status).toBe(200);
    expect((await client(list)).status).toBe(429);
    // The REST twin shares it.
    expect((await client('/configs/c/revisions/2')).status).toBe(429);
  });
});
