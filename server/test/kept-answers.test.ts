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
  const t = createTestApp({ auth: { anonymousRead: [] } });
  // The keys first: the server is open until one exists (and the test clock stands still).
  const key = async (scope: 'read' | 'admin', configs: string[]) =>
    (await t.services.keys.create({ label: scope, scope, configs })).secret;
  const admin = { Authorization: `Bearer ${await key('admin', ['*'])}` };
  const callers: Record<string, Record<string, string>> = {
    admin,
    'read site-a': {
      Authorization: `Bearer ${await key('read', ['site-a/*'])}`,
    },
    'read nothing of it': {
      Authorization: `Bearer ${await key('read', ['other/*'])}`,
    },
    anonymous: {},
  };
  for (const name of ['site-a/one', 'site-a/two', 'site-b/one', 'gone'])
    expect((await t.put(name, config(name), admin)).ok).toBe(true);
  await t.services.publish.publish('site-a/one', {});
  await t.request('/configs/gone', { method: 'DELETE', headers: admin });
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
    const responses = t.services.caches.responses;
    const statuses = new Set<string>();
    let compared = 0;
    for (const [caller, auth] of Object.entries(callers)) {
      for (const path of PATHS) {
        for (const encoding of ENCODINGS) {
          for (const method of ['GET', 'HEAD']) {
            const headers: Record<string, string> = { ...auth };
            if (encoding !== undefined) headers['Accept-Encoding'] = encoding;
            const init = { method, headers };
            // Nothing kept: the first two are computed (the second is kept), the third is the kept one.
            responses.clear();
            const computed = await answerOf(t, path, init);
            await answerOf(t, path, init);
            const hits = responses.stats().hits;
            const kept = await answerOf(t, path, init);
            const what = `${caller} ${method} ${path} ${encoding}`;
            expect(kept, what).toEqual(computed);
            if (computed.status === 200) {
              expect(responses.stats().hits, what).toBe(hits + 1);
              statuses.add(
                `${computed.status} ${computed.headers.find(([n]) => n === 'content-encoding')?.[1] ?? 'plain'}`,
              );
            } else statuses.add(String(computed.status));
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
    // Every kind of answer was among them.
    expect([...statuses].sort()).toEqual([
      '200 br',
      '200 gzip',
      '200 plain',
      '400',
      '401',
    ]);
    // Callers who may read different names were answered apart, kept answer or not.
    for (let i = 0; i < 3; i++) {
      const names = async (caller: string) =>
        (await t.json<string[]>('/configs', { headers: callers[caller] ?? {} }))
          .body;
      expect(await names('admin')).toEqual([
        'site-a/one',
        'site-a/two',
        'site-b/one',
      ]);
      expect(await names('read site-a')).toEqual(['site-a/one', 'site-a/two']);
      expect(await names('read nothing of it')).toEqual([]);
    }
  });

  it('follow the stored state: a write changes the next answer', async () => {
    const { t, callers } = await setup();
    const init = { headers: callers['admin'] ?? {} };
    for (let i = 0; i < 3; i++) await answerOf(t, '/configs', init);
    expect((await t.put('site-c/new', config('new'), init.headers)).ok).toBe(
      true,
    );
    const after = await t.json<string[]>('/configs', init);
    expect(after.body).toContain('site-c/new');
  });
});
