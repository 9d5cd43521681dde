import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createApp } from '../src/http/app.js';
import { Metrics } from '../src/http/metrics.js';
import { createServices } from '../src/services/services.js';
import { createMemoryConfigRepository } from '../src/storage/memory/memory-config-repository.js';
import { loadSettings, usage } from '../src/config/settings.js';

const config = { allLinks: { a: { label: 'A', url: 'https://a.example/' } } };

/**
 * An app whose `/published` budgets are 3 per address and 5 per key (refilling 1 per second), with an
 * admin token and a clock the test moves. Requests come from the address given.
 */
async function limitedApp() {
  let clock = 0;
  const metrics = new Metrics({ processMetrics: false });
  const services = createServices({
    repository: createMemoryConfigRepository(),
  });
  await services.configs.put('site/menu', config);
  await services.publish.publish('site/menu', {});
  const app = createApp({
    services,
    logger: pino({ level: 'silent' }),
    metrics,
    auth: { apiToken: 'admin-token' },
    rateLimit: {
      writes: { perSecond: 1, burst: 100 },
      reads: { perSecond: 1, burst: 100 },
      published: {
        byAddress: { perSecond: 1, burst: 3 },
        byKey: { perSecond: 1, burst: 5 },
      },
      now: () => clock,
    },
  });
  const read =
    (address: string, headers: Record<string, string> = {}) =>
    async (path = '/published/configs/site%2Fmenu'): Promise<Response> =>
      app.request(
        `http://localhost${path}`,
        { headers },
        { incoming: { socket: { remoteAddress: address } } },
      );
  return {
    read,
    metrics,
    advance: (ms: number) => {
      clock += ms;
    },
  };
}

const statuses = async (
  read: () => Promise<Response>,
  times: number,
): Promise<number[]> => {
  const seen: number[] = [];
  for (let i = 0; i < times; i += 1) seen.push((await read()).status);
  return seen;
};

describe('rate limits of /published', () => {
  it('limits each address without a key: 429 with Retry-After and { error }', async () => {
    const { read, advance, metrics } = await limitedApp();
    const visitor = read('10.0.0.1');
    expect(await statuses(visitor, 3)).toEqual([200, 200, 200]);
    // Every route under /published spends it, lists too.
    const refused = await visitor('/published/configs');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toEqual({
      error: 'too many published reads from this client; retry in 1 s',
    });
    // Another address has its own budget; the draft API is not limited by it.
    expect((await read('10.0.0.2')()).status).toBe(200);
    expect((await visitor('/configs/site%2Fmenu')).status).not.toBe(429);
    advance(1000);
    expect(await statuses(visitor, 2)).toEqual([200, 429]);
    expect(await metrics.registry.metrics()).toMatch(
      /linkconfig_rate_limited_total\{budget="published-by-address"\} 2/,
    );
  });

  it('charges a request with a valid key to the key, wherever it comes from', async () => {
    const { read } = await limitedApp();
    const key = { Authorization: 'Bearer admin-token' };
    const seen = [
      ...(await statuses(read('10.0.0.1', key), 3)),
      ...(await statuses(read('10.0.0.2', key), 3)),
    ];
    expect(seen).toEqual([200, 200, 200, 200, 200, 429]);
    // The addresses' own budgets were not touched.
    expect(await statuses(read('10.0.0.1'), 3)).toEqual([200, 200, 200]);
    // An invalid key counts as none: its address pays.
    const forged = read('10.0.0.3', { Authorization: 'Bearer made-up' });
    expect(await statuses(forged, 4)).toEqual([200, 200, 200, 429]);
  });

  it('charges the published procedures over /trpc to the same budget, a batch by its calls', async () => {
    const { read } = await limitedApp();
    const visitor = read('10.0.0.1');
    const get = `/trpc/published.get?input=${encodeURIComponent('{"name":"site/menu"}')}`;
    const batch = (n: number) =>
      `/trpc/${Array(n).fill('published.get').join(',')}?batch=1&input=${encodeURIComponent(
        JSON.stringify(
          Object.fromEntries(
            Array.from({ length: n }, (_, i) => [i, { name: 'site/menu' }]),
          ),
        ),
      )}`;
    // A batch of more calls than the burst is refused whole, before anything is spent.
    const over = await visitor(batch(4));
    expect(over.status).toBe(400);
    expect(((await over.json()) as { error: string }).error).toMatch(
      /4 published reads/,
    );
    expect((await visitor(batch(2))).status).toBe(200);
    expect((await visitor(get)).status).toBe(200);
    // REST and tRPC spend one budget: three reads spent, the fourth of either kind waits.
    expect((await visitor('/published/configs/site%2Fmenu')).status).toBe(429);
    expect((await visitor(get)).status).toBe(429);
  });
});

describe('settings of the /published limits', () => {
  it('are read from the environment and flags, and named in the usage text', () => {
    const settings = loadSettings(
      {
        PUBLISHED_RATE_LIMIT_ADDRESS: '3',
        PUBLISHED_RATE_LIMIT_ADDRESS_BURST: '9',
        PUBLISHED_RATE_LIMIT_KEY_BURST: '70',
      },
      ['--published-rate-limit-key', '7'],
    );
    expect(settings).toMatchObject({
      publishedRateAddress: 3,
      publishedRateAddressBurst: 9,
      publishedRateKey: 7,
      publishedRateKeyBurst: 70,
    });
    for (const name of [
      'PUBLISHED_RATE_LIMIT_ADDRESS',
      'PUBLISHED_RATE_LIMIT_ADDRESS_BURST',
      'PUBLISHED_RATE_LIMIT_KEY',
      'PUBLISHED_RATE_LIMIT_KEY_BURST',
    ]) {
      expect(usage()).toContain(` ${name} `);
    }
  });
});
