import { describe, expect, it } from 'vitest';
import { createTestApp } from './test-app.js';
import type { TestApp } from './test-app.js';

/**
 * A kept answer (`rest.reusable` routes) is sent without its input being assembled again when the route's
 * input is its query string (`keyedByQuery`): it must be the very answer the full path computes, for every
 * caller, encoding, method and condition.
 */

const config = (mark: string) => ({
  allLinks: {
    a: {
      url: `https://a.example/${mark}`,
      label: `Alpha ${mark}`,
      tags: ['t'],
    },
    b: {
      url: `https://b.example/${mark}`,
      label: `Beta ${mark}`,
      description: 'word '.repeat(300),
      tags: ['t', 'u'],
    },
  },
});

/** An app with configs under two prefixes (one published, one deleted) and keys of differing rights. */
async function setup() {
  const t = createTestApp();
  for (const name of ['site-a/one', 'site-a/two', 'site-b/one', 'gone'])
    await t.put(name, config(name));
  await t.services.publish.publish('site-a/one', {});
  await t.request('/configs/gone', { method: 'DELETE' });
  const key = async (scope: 'read' | 'admin', configs: string[]) =>
    (await t.services.keys.create({ label: scope, scope, configs })).secret;
  const callers: Record<string, Record<string, string>> = {
    admin: { Authorization: `Bearer ${await key('admin', ['*'])}` },
    'read site-a': {
      Authorization: `Bearer ${await key('read', ['site-a/*'])}`,
    },
    'read nothing of it': {
      Authorization: `Bearer ${await key('read', ['other/*'])}`,
    },
    anonymous: {},
  };
  return { t, callers };
}

const PATHS = [
  '/configs',
  '/configs?deleted=true',
  '/configs?unknown=1',
  '/search?q=alpha',
  '/search?q=word&limit=1',
  '/search?tag=u&fields=label',
  '/search?q=beta&limit=banana',
  '/published/configs',
  '/published/search?q=alpha',
];

const ENCODINGS = [undefined, 'br', 'gzip', 'gzip;q=0, br;q=0'];

/** Status, headers (but the request id) and body bytes of an answer. */
async function answerOf(t: TestApp, path: string, init: RequestInit) {
  const response = await t.request(path, init);
  const headers = [...response.headers.entries()].filter(
    ([name]) => name !== 'x-request-id',
  );
  const body = Buffer.from(await response.arrayBuffer()).toString('base64');
  return { status: response.status, headers, body };
}

describe('kept answers sent on the short path', () => {
  it('are the answers the full path computes: callers, encodings, HEAD, 304, refused inputs', async () => {
    const { t, callers } = await setup();
    let compared = 0;
    for (const [caller, auth] of Object.entries(callers)) {
      for (const path of PATHS) {
        for (const encoding of ENCODINGS) {
          for (const method of ['GET', 'HEAD']) {
            const headers: Record<string, string> = { ...auth };
            if (encoding !== undefined) headers['Accept-Encoding'] = encoding;
            const init = { method, headers };
            // The first two are computed (the second is kept), the third and fourth are the kept one.
            const computed = await answerOf(t, path, init);
            await answerOf(t, path, init);
            const kept = await answerOf(t, path, init);
            expect(kept, `${caller} ${method} ${path} ${encoding}`).toEqual(
              computed,
            );
            const etag = computed.headers.find(([n]) => n === 'etag')?.[1];
            if (etag !== undefined) {
              const conditional = {
                method,
                headers: { ...headers, 'If-None-Match': etag },
              };
              const first = await answerOf(t, path, conditional);
              expect(first.status).toBe(304);
              expect(await answerOf(t, path, conditional)).toEqual(first);
            }
            compared++;
          }
        }
      }
    }
    expect(compared).toBe(4 * PATHS.length * ENCODINGS.length * 2);
    // The kept answers were used, and only answers of accepted requests were kept.
    const stats = t.services.caches.responses.stats();
    expect(stats.hits).toBeGreaterThan(100);
    const refused = await answerOf(t, '/search?q=beta&limit=banana', {});
    expect(refused.status).toBe(400);
  });

  it('follow the stored state: a write changes the next answer', async () => {
    const { t, callers } = await setup();
    const init = { headers: callers.admin ?? {} };
    for (let i = 0; i < 3; i++) await answerOf(t, '/configs', init);
    await t.put('site-c/new', config('new'));
    const after = await t.json<string[]>('/configs', init);
    expect(after.body).toContain('site-c/new');
  });
});
