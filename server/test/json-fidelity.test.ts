/**
 * Issue 17, item 6: a body whose value would not read back as sent is refused with 400 saying where, on
 * every route that takes a config: REST PUT, tRPC `configs.put`, inline configs of /query and /cherry-pick.
 */
import { describe, expect, it } from 'vitest';
import { createTestApp } from './test-app.js';

/** Config texts `JSON.parse` cannot keep, with the path the answer names (inside the config). */
const UNFAITHFUL = [
  ['{"allLinks":{"a":{"url":"https://a","n":1e400}}}', 'allLinks.a.n'],
  [
    '{"allLinks":{"a":{"url":"https://a","n":12345678901234567890123}}}',
    'allLinks.a.n',
  ],
  [
    '{"allLinks":{"a":{"url":"https://a","url":"https://b"}}}',
    'allLinks.a.url',
  ],
] as const;

const send = (
  t: ReturnType<typeof createTestApp>,
  request: { path: string; method: string; body: string },
) =>
  t.request(request.path, {
    method: request.method,
    headers: { 'Content-Type': 'application/json' },
    body: request.body,
  });

describe('bodies that would not read back as sent (issue 17, item 6)', () => {
  it.each(UNFAITHFUL)('PUT /configs/:name refuses %s', async (config, path) => {
    const t = createTestApp();
    const response = await send(t, {
      path: '/configs/c',
      method: 'PUT',
      body: config,
    });
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: string };
    expect(error).toContain(` at ${path}:`);
    expect((await t.request('/configs/c')).status).toBe(404);
  });

  it.each(UNFAITHFUL)('tRPC configs.put refuses %s', async (config, path) => {
    const t = createTestApp();
    const response = await send(t, {
      path: '/trpc/configs.put',
      method: 'POST',
      body: `{"name":"c","config":${config}}`,
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(`config.${path}`);
    expect((await t.request('/configs/c')).status).toBe(404);
  });

  it.each(UNFAITHFUL)(
    'inline configs of /query and /cherry-pick refuse %s',
    async (config, path) => {
      const t = createTestApp();
      const query = await send(t, {
        path: '/query',
        method: 'POST',
        body: `{"expression":".x","configs":[${config}]}`,
      });
      expect(query.status).toBe(400);
      expect(((await query.json()) as { error: string }).error).toContain(
        `configs[0].${path}`,
      );
      const pick = await send(t, {
        path: '/cherry-pick',
        method: 'POST',
        body: `{"expression":".x","source":${config}}`,
      });
      expect(pick.status).toBe(400);
      expect(((await pick.json()) as { error: string }).error).toContain(
        `source.${path}`,
      );
    },
  );

  it('accepts spellings that only change the representation: 1.0, -0, 1E2', async () => {
    const t = createTestApp();
    const response = await send(t, {
      path: '/configs/c',
      method: 'PUT',
      body: '{"allLinks":{"a":{"url":"https://a","n":1.0,"m":-0,"k":1E2}}}',
    });
    expect(response.status).toBe(204);
    const { body } = await t.json<{ config: unknown }>('/configs/c');
    expect(body.config).toEqual({
      allLinks: { a: { url: 'https://a', n: 1, m: 0, k: 100 } },
    });
  });
});
