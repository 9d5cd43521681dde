import { describe, expect, it } from 'vitest';
import { markedConfig } from './published-scene.js';
import { createTestApp } from './test-app.js';

const config = markedConfig;

const DRAFT = 'DRAFTMARK';
const GONE = 'GONEMARK';
const NEVER = 'NEVERMARK';

/** A server with one published config whose draft moved on, a deleted published one, and a never published one. */
async function scene() {
  const t = createTestApp();
  await t.put('site/live', config('LIVE'));
  await t.services.publish.publish('site/live', {});
  const draft = await t.put('site/live', config(DRAFT));
  await t.put('site/gone', config(GONE));
  await t.services.publish.publish('site/gone', {});
  await t.request('/configs/site%2Fgone', { method: 'DELETE' });
  await t.put('site/never', config(NEVER));
  return { t, draftEtag: draft.headers.get('etag') ?? '' };
}

const marks = [DRAFT, GONE, NEVER];
/** Content marks never appear; hidden names only where the request did not name them (a 404 repeats it). */
const expectClean = (text: string, where: string, status: number) => {
  const names = status === 404 ? [] : ['site/gone', 'site/never'];
  for (const mark of [...marks, ...names]) {
    expect(
      text.toUpperCase().includes(mark.toUpperCase()),
      `${where} holds ${mark}`,
    ).toBe(false);
  }
};

describe('/published never shows a draft, a deleted or an unpublished name', () => {
  it('in lists, reads, searches, queries, cherry-picks, errors and ETags', async () => {
    const { t, draftEtag } = await scene();
    const post = (path: string, body: unknown) => t.post(path, body);
    const answers: [string, Response][] = [
      ['list', await t.request('/published/configs')],
      ['list deleted', await t.request('/published/configs?deleted=true')],
      ['get', await t.request('/published/configs/site%2Flive')],
      ['search', await t.request('/published/search?tag=bridge')],
      ['search q', await t.request('/published/search?q=mark')],
      [
        'query',
        await post('/published/query', {
          configName: 'site/live',
          expression: '.bridge',
        }),
      ],
      [
        'query named',
        await post('/published/query', {
          configName: ['site/live', 'site/gone', 'site/never'],
          expression: '.bridge',
        }),
      ],
      [
        'cherry-pick',
        await post('/published/cherry-pick', {
          source: 'site/live',
          expression: '.nyc',
        }),
      ],
      ['get gone', await t.request('/published/configs/site%2Fgone')],
      ['get never', await t.request('/published/configs/site%2Fnever')],
      [
        'query never',
        await post('/published/query', {
          configName: 'site/never',
          expression: '.bridge',
        }),
      ],
      [
        'cherry-pick gone',
        await post('/published/cherry-pick', {
          source: 'site/gone',
          expression: '.nyc',
        }),
      ],
    ];
    const statuses: Record<string, number> = {};
    for (const [where, response] of answers) {
      statuses[where] = response.status;
      const text = await response.text();
      expectClean(text, where, response.status);
      const etag = response.headers.get('etag');
      if (etag !== null) expect(etag, where).not.toBe(draftEtag);
    }
    expect(statuses).toMatchObject({
      list: 200,
      'list deleted': 200,
      get: 200,
      search: 200,
      query: 200,
      'cherry-pick': 200,
      'get gone': 404,
      'get never': 404,
      'query never': 404,
      'cherry-pick gone': 404,
    });
    expect(await (await t.request('/published/configs')).json()).toEqual([
      'site/live',
    ]);
    // The missing names are answered with the words of any missing name.
    expect(
      await (await t.request('/published/configs/site%2Fnever')).json(),
    ).toEqual({ error: 'config "site/never" not found' });
  });

  it('refuses writes with 405 and Allow', async () => {
    const { t } = await scene();
    for (const [path, method] of [
      ['/published/configs/site%2Flive', 'PUT'],
      ['/published/configs/site%2Flive', 'DELETE'],
      ['/published/configs/site%2Flive', 'PATCH'],
      ['/published/configs', 'POST'],
    ] as const) {
      const response = await t.request(path, {
        method,
        headers: { 'Content-Type': 'application/json' },
        body: method === 'DELETE' ? null : '{}',
      });
      expect(response.status, `${method} ${path}`).toBe(405);
      expect(response.headers.get('allow')).toBe('GET');
    }
    // The draft is untouched.
    const head = await t.json<{ config: { allLinks: object } }>(
      '/configs/site%2Flive',
    );
    expect(Object.keys(head.body.config.allLinks)).toEqual([`${DRAFT}1`]);
  });

  it('PUBLISHED_READ=public reads without a key on a closed server; key applies the read rules', async () => {
    const auth = { apiToken: 'admin', anonymousRead: [] };
    const open = createTestApp({ auth });
    await open.put('m', config('LIVE'), { Authorization: 'Bearer admin' });
    await open.services.publish.publish('m', {});
    expect((await open.request('/configs/m')).status).toBe(401);
    expect((await open.request('/published/configs/m')).status).toBe(200);
    const keyed = createTestApp({ auth, publishedRead: 'key' });
    await keyed.put('m', config('LIVE'), { Authorization: 'Bearer admin' });
    await keyed.services.publish.publish('m', {});
    expect((await keyed.request('/published/configs/m')).status).toBe(401);
    expect(
      (
        await keyed.request('/published/configs/m', {
          headers: { Authorization: 'Bearer admin' },
        })
      ).status,
    ).toBe(200);
  });
});
