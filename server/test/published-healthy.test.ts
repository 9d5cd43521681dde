/**
 * Healthy-only publishing (issue 31): a config published with `hideBroken` serves its revision without
 * the links the checker confirmed broken or unreachable, in reads, queries and searches; its ETag
 * follows what is served; the draft and other published configs keep the link; a change of link state
 * purges the published answers of the configs that hide broken links.
 */
import { describe, expect, it } from 'vitest';
import type { LinkHealthRecord, LinkState } from '@linkconfig/shared';
import { checkedUrl } from '../src/link-health/config-links.js';
import { purgeOnLinkEvent } from '../src/services/purge.js';
import { uncheckedRecord } from '../src/storage/link-health-store.js';
import { createTestApp } from './test-app.js';
import type { TestApp } from './test-app.js';

const menu = {
  allLinks: {
    good: { label: 'Good', url: 'https://good.example/', tags: ['nyc'] },
    dead: { label: 'Dead', url: 'https://dead.example/', tags: ['nyc'] },
  },
  macros: { all: { linkItems: '.nyc' } },
};
const DEAD = checkedUrl('https://dead.example/') ?? '';

/** Stores the state of the dead link's URL and logs its change, as the checker does. */
async function linkState(t: TestApp, state: LinkState): Promise<void> {
  const record: LinkHealthRecord = {
    ...uncheckedRecord(DEAD, 0),
    state,
    since: '2026-01-02T03:04:05.000Z',
    checkedAt: '2026-01-02T03:04:05.000Z',
    status: state === 'broken' ? 404 : 200,
  };
  await t.repository.linkHealth.putAll([record]);
  for (const name of ['site/healthy', 'site/all'])
    await t.repository.appendEvent({
      type: state === 'broken' ? 'link-broken' : 'link-recovered',
      name,
      detail: { url: DEAD, state },
    });
}

const ids = async (t: TestApp, path: string) => {
  const got = await t.request(path);
  const body = (await got.json()) as {
    config: { allLinks: Record<string, unknown> };
  };
  return {
    ids: Object.keys(body.config.allLinks),
    etag: got.headers.get('etag'),
  };
};

const queried = async (t: TestApp, name: string) => {
  const got = await t.post('/published/query', {
    configName: name,
    expression: '@all',
  });
  const body = (await got.json()) as { results: { id: string }[] };
  return body.results.map((r) => r.id).sort();
};

describe('publishing healthy links only', () => {
  it('leaves confirmed broken links out of what /published serves, with an ETag of its own', async () => {
    const t = createTestApp();
    await t.put('site/healthy', menu);
    await t.put('site/all', menu);
    const record = await t.services.publish.publish('site/healthy', {
      hideBroken: true,
    });
    expect(record.hideBroken).toBe(true);
    await t.services.publish.publish('site/all', {});

    const before = await ids(t, '/published/configs/site%2Fhealthy');
    expect(before.ids).toEqual(['good', 'dead']);
    await linkState(t, 'broken');

    const after = await ids(t, '/published/configs/site%2Fhealthy');
    expect(after.ids).toEqual(['good']);
    expect(after.etag).not.toBe(before.etag);
    expect(after.etag).toMatch(/^"[^"]+"$/);
    // The old ETag no longer matches; the new one does.
    const stale = await t.request('/published/configs/site%2Fhealthy', {
      headers: { 'If-None-Match': before.etag ?? '' },
    });
    expect(stale.status).toBe(200);
    const fresh = await t.request('/published/configs/site%2Fhealthy', {
      headers: { 'If-None-Match': after.etag ?? '' },
    });
    expect(fresh.status).toBe(304);
    // Macros and expressions resolve without it; searches do not find it.
    expect(await queried(t, 'site/healthy')).toEqual(['good']);
    const search = await t.request('/published/search?q=dead');
    expect(await search.text()).not.toContain('site/healthy');

    // The draft keeps it for repair; a config published without the option serves it, unless asked.
    expect((await ids(t, '/configs/site%2Fhealthy')).ids).toEqual([
      'good',
      'dead',
    ]);
    expect((await ids(t, '/published/configs/site%2Fall')).ids).toEqual([
      'good',
      'dead',
    ]);
    expect(await queried(t, 'site/all')).toEqual(['dead', 'good']);
    expect(
      (await ids(t, '/published/configs/site%2Fall?links=healthy')).ids,
    ).toEqual(['good']);

    // Recovered: the link is back, under the published version's own ETag again.
    await linkState(t, 'ok');
    const recovered = await ids(t, '/published/configs/site%2Fhealthy');
    expect(recovered).toEqual(before);
  });

  it('a link event purges the published answers of the configs that hide broken links', async () => {
    const t = createTestApp();
    await t.put('site/healthy', menu);
    await t.put('site/all', menu);
    await t.put('site/draft', menu);
    await t.services.publish.publish('site/healthy', { hideBroken: true });
    await t.services.publish.publish('site/all', {});
    const purged: string[] = [];
    const onLinkEvent = purgeOnLinkEvent(t.repository.publish, (event) =>
      purged.push(event.name),
    );
    await onLinkEvent({
      type: 'link-broken',
      url: DEAD,
      state: 'broken',
      at: '2026-01-02T03:04:05.000Z',
      status: 404,
      reason: 'HTTP 404',
      configs: ['site/healthy', 'site/all', 'site/draft', 'site/healthy'],
    });
    expect(purged).toEqual(['site/healthy']);
  });
});
