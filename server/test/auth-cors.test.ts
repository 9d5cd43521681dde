import { describe, expect, it } from 'vitest';
import { createTestApp, utf8 } from './test-app.js';

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

describe('auth with API_TOKEN', () => {
  const t = () => createTestApp({ auth: { apiToken: 'write-secret' } });

  it('needs the API token for PUT and DELETE, with 401 and WWW-Authenticate otherwise', async () => {
    const app = t();
    const none = await app.put('n', { allLinks: {} });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    expect(((await none.json()) as { error: string }).error).toMatch(
      /Authorization: Bearer/,
    );
    expect((await app.put('n', { allLinks: {} }, bearer('wrong'))).status).toBe(
      401,
    );
    expect(
      (await app.put('n', { allLinks: {} }, { Authorization: 'write-secret' }))
        .status,
    ).toBe(401);
    expect((await app.request('/configs/n', { method: 'DELETE' })).status).toBe(
      401,
    );
    expect(
      (await app.put('n', { allLinks: {} }, bearer('write-secret'))).status,
    ).toBe(204);
    expect(
      (
        await app.request('/configs/n', {
          method: 'DELETE',
          headers: bearer('write-secret'),
        })
      ).status,
    ).toBe(204);
  });

  it('keeps reads open', async () => {
    const app = t();
    expect((await app.request('/configs')).status).toBe(200);
    expect((await app.request('/search?q=a')).status).toBe(200);
  });

  it('never takes the token from the query string', async () => {
    const app = t();
    const response = await app.request(
      '/configs/n?token=write-secret&access_token=write-secret',
      { method: 'PUT', body: utf8('{"allLinks":{}}') },
    );
    expect(response.status).toBe(401);
  });
});

describe('auth with API_TOKEN and READ_TOKEN', () => {
  const t = () =>
    createTestApp({
      auth: { apiToken: 'write-secret', readToken: 'read-secret' },
    });

  it('needs either token for reads', async () => {
    const app = t();
    expect((await app.request('/configs')).status).toBe(401);
    expect(
      (await app.request('/configs', { headers: bearer('read-secret') }))
        .status,
    ).toBe(200);
    expect(
      (await app.request('/configs', { headers: bearer('write-secret') }))
        .status,
    ).toBe(200);
    expect((await app.post('/query', { expression: 'a' })).status).toBe(401);
  });

  it('answers 403 when the read token tries to write', async () => {
    const app = t();
    const response = await app.put(
      'n',
      { allLinks: {} },
      bearer('read-secret'),
    );
    expect(response.status).toBe(403);
    expect(((await response.json()) as { error: string }).error).toMatch(
      /only read/,
    );
    expect(await app.repository.count()).toBe(0);
  });

  it('applies the same rules to /trpc', async () => {
    const app = t();
    expect((await app.request('/trpc/configs.list')).status).toBe(401);
    expect(
      (
        await app.request('/trpc/configs.list', {
          headers: bearer('read-secret'),
        })
      ).status,
    ).toBe(200);
    const write = await app.request('/trpc/configs.put', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...bearer('read-secret') },
      body: JSON.stringify({ name: 'n', config: { allLinks: {} } }),
    });
    expect(write.status).toBe(403);
  });
});

describe('CORS', () => {
  it('answers a preflight for PUT with Authorization from an allowed origin', async () => {
    const app = createTestApp({ corsOrigins: ['https://app.example'] });
    const response = await app.request('/configs/n', {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://app.example',
        'Access-Control-Request-Method': 'PUT',
        'Access-Control-Request-Headers': 'authorization, content-type',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(
      'https://app.example',
    );
    expect(response.headers.get('access-control-allow-methods')).toContain(
      'PUT',
    );
    expect(
      response.headers.get('access-control-allow-headers')?.toLowerCase(),
    ).toContain('authorization');
  });

  it('does not allow other origins', async () => {
    const app = createTestApp({ corsOrigins: ['https://app.example'] });
    const response = await app.request('/configs', {
      headers: { Origin: 'https://evil.example' },
    });
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('allows any origin by default and exposes ETag', async () => {
    const app = createTestApp();
    const response = await app.request('/configs', {
      headers: { Origin: 'https://any.example' },
    });
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-expose-headers')).toContain(
      'ETag',
    );
  });
});

describe('auth matrix (every endpoint × every kind of token)', () => {
  const endpoints: {
    name: string;
    write: boolean;
    send: (
      t: ReturnType<typeof createTestApp>,
      h: Record<string, string>,
    ) => Promise<Response>;
  }[] = [
    {
      name: 'GET /configs',
      write: false,
      send: (t, h) => t.request('/configs', { headers: h }),
    },
    {
      name: 'GET /configs/:name',
      write: false,
      send: (t, h) => t.request('/configs/demo', { headers: h }),
    },
    {
      name: 'PUT /configs/:name',
      write: true,
      send: (t, h) => t.put('demo', { allLinks: {} }, h),
    },
    {
      name: 'DELETE /configs/:name',
      write: true,
      send: (t, h) =>
        t.request('/configs/demo', { method: 'DELETE', headers: h }),
    },
    {
      name: 'GET /search',
      write: false,
      send: (t, h) => t.request('/search?q=a', { headers: h }),
    },
    {
      name: 'POST /cherry-pick',
      write: false,
      send: (t, h) =>
        t.post('/cherry-pick', { source: 'demo', expression: 'a' }, h),
    },
    {
      name: 'POST /query',
      write: false,
      send: (t, h) => t.post('/query', { expression: 'a' }, h),
    },
  ];
  const tokens = {
    none: {},
    bad: bearer('bad'),
    read: bearer('read-secret'),
    write: bearer('write-secret'),
  };
  const cases = endpoints.flatMap((e) =>
    Object.entries(tokens).map(([token, headers]) => ({
      ...e,
      token,
      headers,
    })),
  );

  it.each(cases)(
    '$name with $token token, reads open',
    async ({ write, token, headers, send }) => {
      const t = createTestApp({ auth: { apiToken: 'write-secret' } });
      await t.services.configs.put('demo', { allLinks: {} });
      const status = (await send(t, headers)).status;
      // A bearer that opens nothing is refused even where no key is needed.
      if (!write && (token === 'bad' || token === 'read'))
        expect(status).toBe(401);
      else if (!write) expect(status).toBeLessThan(300);
      else if (token === 'write') expect(status).toBe(204);
      else if (token === 'read' || token === 'bad' || token === 'none')
        expect(status).toBe(401);
    },
  );

  it.each(cases)(
    '$name with $token token, reads need a token',
    async ({ write, token, headers, send }) => {
      const t = createTestApp({
        auth: { apiToken: 'write-secret', readToken: 'read-secret' },
      });
      await t.services.configs.put('demo', { allLinks: {} });
      const status = (await send(t, headers)).status;
      const expected =
        token === 'none' || token === 'bad'
          ? 401
          : write && token === 'read'
            ? 403
            : null;
      if (expected === null) expect(status).toBeLessThan(300);
      else expect(status).toBe(expected);
    },
  );
});
