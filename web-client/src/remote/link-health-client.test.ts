import { describe, expect, it, vi } from 'vitest';
import { createHttpCaller } from './http-call.js';
import { createLinkHealthClient } from './link-health-client.js';
import { RemoteStoreError } from './remote-store-error.js';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

function clientWith(handler: (url: string, init: RequestInit) => Response) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetch = vi.fn(
    async (input: string | URL | Request, init?: RequestInit) => {
      calls.push({ url: String(input), init: init ?? {} });
      return handler(String(input), init ?? {});
    },
  );
  const client = createLinkHealthClient(
    createHttpCaller({
      baseUrl: 'http://api.test/',
      token: 'k1',
      fetch: fetch as unknown as typeof globalThis.fetch,
    }),
  );
  return { client, calls };
}

const health = {
  name: 'a b',
  links: [],
  counts: {},
};

describe('link health client', () => {
  it("reads a config's health, and null for a name no config has", async () => {
    const { client, calls } = clientWith((url) =>
      url.includes('/never/') ? json(404, { error: 'no' }) : json(200, health),
    );
    expect(await client.ofConfig('a b')).toEqual(health);
    expect(calls[0]?.url).toBe('http://api.test/configs/a%20b/links/health');
    expect(new Headers(calls[0]?.init.headers).get('Authorization')).toBe(
      'Bearer k1',
    );
    expect(await client.ofConfig('never')).toBeNull();
  });

  it('reads links across configs with states, limit and after', async () => {
    const { client, calls } = clientWith(() =>
      json(200, { links: [], next: null }),
    );
    await client.across({
      states: ['broken', 'redirected'],
      limit: 5,
      after: 'x',
    });
    await client.across();
    expect(calls.map((c) => c.url)).toEqual([
      'http://api.test/links/health?state=broken%2Credirected&limit=5&after=x',
      'http://api.test/links/health',
    ]);
  });

  it("asks for a check with POST and rejects with the server's reason when it is off", async () => {
    let off = false;
    const { client, calls } = clientWith(() =>
      off
        ? json(409, { error: 'link checking is off' })
        : json(200, { urls: 3 }),
    );
    expect(await client.checkNow('site/menu')).toEqual({ urls: 3 });
    expect(calls[0]?.init.method).toBe('POST');
    expect(calls[0]?.url).toBe(
      'http://api.test/configs/site%2Fmenu/links/check',
    );
    off = true;
    const error = await client.checkNow('site/menu').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RemoteStoreError);
    expect((error as RemoteStoreError).status).toBe(409);
    expect((error as RemoteStoreError).reason).toBe('link checking is off');
  });
});
