import { describe, expect, it } from 'vitest';
import { originsScene, OTHER, SITE_A, SITE_B } from './published-scene.js';

const scene = originsScene;

const from = (origin: string, init: RequestInit = {}): RequestInit => ({
  ...init,
  headers: { ...(init.headers as Record<string, string>), Origin: origin },
});

const allowOrigin = (response: Response) =>
  response.headers.get('access-control-allow-origin');

const varyNames = (response: Response) =>
  (response.headers.get('vary') ?? '').split(/,\s*/);

describe('CORS on /published follows the publish records', () => {
  it('one config: only a page of an allowed origin gets it, with CORS headers naming that origin', async () => {
    const t = await scene();
    const allowed = await t.request(
      '/published/configs/a%2Fmenu',
      from(SITE_A),
    );
    expect(allowed.status).toBe(200);
    expect(allowOrigin(allowed)).toBe(SITE_A);
    expect(allowed.headers.get('access-control-expose-headers')).toContain(
      'ETag',
    );
    expect(varyNames(allowed)).toContain('Origin');
    expect(await allowed.text()).toContain('AMARK');

    // Another site's page: no CORS headers (the browser hides the answer) and the config looks missing.
    for (const origin of [SITE_B, OTHER]) {
      const refused = await t.request(
        '/published/configs/a%2Fmenu',
        from(origin),
      );
      expect(refused.status, origin).toBe(404);
      expect(allowOrigin(refused), origin).toBeNull();
      expect(await refused.text()).not.toContain('AMARK');
    }
    // Unpublished names answer alike: a page cannot tell them from refused ones.
    const never = await t.request(
      '/published/configs/never%2Fmenu',
      from(SITE_A),
    );
    expect(never.status).toBe(404);
    expect(allowOrigin(never)).toBeNull();

    // `null` origins: any site.
    const any = await t.request('/published/configs/any%2Fmenu', from(OTHER));
    expect(any.status).toBe(200);
    expect(allowOrigin(any)).toBe(OTHER);
  });

  it('a request without Origin (not a page of another site) reads every published config, without CORS headers', async () => {
    const t = await scene();
    const plain = await t.request('/published/configs/a%2Fmenu');
    expect(plain.status).toBe(200);
    expect(allowOrigin(plain)).toBeNull();
    // A shared cache must not hand this answer to a page: it varies by Origin.
    expect(varyNames(plain)).toContain('Origin');
    expect(await t.json('/published/configs')).toMatchObject({
      body: ['a/menu', 'any/menu', 'b/menu'],
    });
    // The server's own page (same origin) is not another site either.
    const own = await t.request(
      '/published/configs/b%2Fmenu',
      from('http://localhost'),
    );
    expect(own.status).toBe(200);
  });

  it('preflights: the allow headers only for an allowed page', async () => {
    const t = await scene();
    const preflight = (path: string, origin: string) =>
      t.request(path, {
        method: 'OPTIONS',
        headers: {
          Origin: origin,
          'Access-Control-Request-Method': 'GET',
          'Access-Control-Request-Headers': 'if-none-match',
        },
      });
    const ok = await preflight('/published/configs/a%2Fmenu', SITE_A);
    expect(ok.status).toBe(204);
    expect(allowOrigin(ok)).toBe(SITE_A);
    expect(ok.headers.get('access-control-allow-methods')).toContain('GET');
    expect(ok.headers.get('access-control-allow-headers')).toBe(
      'if-none-match',
    );
    for (const [path, origin] of [
      ['/published/configs/a%2Fmenu', SITE_B],
      ['/published/configs/never%2Fmenu', SITE_A],
    ] as const) {
      const refused = await preflight(path, origin);
      expect(refused.status).toBeLessThan(300);
      expect(allowOrigin(refused), `${path} ${origin}`).toBeNull();
      expect(refused.headers.get('access-control-allow-methods')).toBeNull();
      expect(refused.headers.get('access-control-allow-headers')).toBeNull();
    }
    // Routes across configs answer every page (with what its origin may read).
    const query = await preflight('/published/query', OTHER);
    expect(allowOrigin(query)).toBe(OTHER);
  });

  it('across configs: lists, searches, queries and cherry-picks hold only what the origin may read', async () => {
    const t = await scene();
    const list = async (origin: string) => {
      const response = await t.request('/published/configs', from(origin));
      expect(allowOrigin(response)).toBe(origin);
      expect(varyNames(response)).toContain('Origin');
      return response.json();
    };
    // Asked in turn: a list kept for one origin is never reused for another.
    expect(await list(SITE_A)).toEqual(['a/menu', 'any/menu']);
    expect(await list(SITE_B)).toEqual(['any/menu', 'b/menu']);
    expect(await list(OTHER)).toEqual(['any/menu']);
    expect(await list(SITE_A)).toEqual(['a/menu', 'any/menu']);

    const search = await t.request(
      '/published/search?tag=bridge',
      from(SITE_B),
    );
    const found = await search.text();
    expect(found).toContain('BMARK');
    expect(found).toContain('ANYMARK');
    expect(found).not.toContain('AMARK');
    expect(found).not.toContain('a/menu');

    const query = (origin: string, configName: unknown) =>
      t.post(
        '/published/query',
        { configName, expression: '.bridge' },
        {
          Origin: origin,
        },
      );
    const mine = await query(SITE_A, 'a/menu');
    expect(mine.status).toBe(200);
    expect(await mine.text()).toContain('AMARK');
    const theirs = await query(SITE_B, 'a/menu');
    expect(theirs.status).toBe(404);
    expect(await theirs.text()).not.toContain('AMARK');
    // Several configs go in `configs`: the one site B may not read is treated as missing (skipped, as a
    // name that does not exist is), so only the other one's links answer.
    const several = await t.post(
      '/published/query',
      { configs: ['any/menu', 'a/menu'], expression: '.bridge' },
      { Origin: SITE_B },
    );
    expect(several.status).toBe(200);
    const merged = await several.text();
    expect(merged).toContain('ANYMARK');
    expect(merged).not.toContain('AMARK');

    const pick = await t.post(
      '/published/cherry-pick',
      { source: 'a/menu', expression: '.nyc' },
      { Origin: OTHER },
    );
    expect(pick.status).toBe(404);
    expect(await pick.text()).not.toContain('AMARK');
  });

  it('follows a new publish: changing the origins moves the config to the other site', async () => {
    const t = await scene();
    const get = () => t.request('/published/configs/a%2Fmenu', from(SITE_B));
    expect((await get()).status).toBe(404);
    await t.services.publish.publish('a/menu', { origins: [SITE_B] });
    const moved = await get();
    expect(moved.status).toBe(200);
    expect(allowOrigin(moved)).toBe(SITE_B);
    const list = await t.request('/published/configs', from(SITE_A));
    expect(await list.json()).toEqual(['any/menu']);
  });

  it('a preflight grants exactly CORS_HEADERS when they are set', async () => {
    const t = await scene({ corsHeaders: ['If-None-Match', 'Authorization'] });
    const ok = await t.request('/published/configs/a%2Fmenu', {
      method: 'OPTIONS',
      headers: {
        Origin: SITE_A,
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'x-anything',
      },
    });
    expect(allowOrigin(ok)).toBe(SITE_A);
    expect(ok.headers.get('access-control-allow-headers')).toBe(
      'If-None-Match, Authorization',
    );
  });

  it('does not touch the draft API: /configs keeps the CORS_ORIGINS rules', async () => {
    const t = await scene({ corsOrigins: [SITE_A] });
    const draft = await t.request('/configs/b%2Fmenu', from(SITE_A));
    expect(allowOrigin(draft)).toBe(SITE_A);
    const published = await t.request(
      '/published/configs/b%2Fmenu',
      from(SITE_A),
    );
    expect(allowOrigin(published)).toBeNull();
  });
});
