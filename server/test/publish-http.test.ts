import { describe, expect, it } from 'vitest';
import { createTestApp } from './test-app.js';
import type { TestApp } from './test-app.js';

const menu = (...ids: string[]): Record<string, unknown> => ({
  allLinks: Object.fromEntries(
    ids.map((id) => [
      id,
      { label: id, url: `https://${id}.example`, tags: ['nyc', 'bridge'] },
    ]),
  ),
});

const bearer = (secret: string) => ({ Authorization: `Bearer ${secret}` });

const publish = (
  t: TestApp,
  name: string,
  {
    body = {},
    headers = {},
  }: { body?: unknown; headers?: Record<string, string> } = {},
) =>
  t.json(`/configs/${encodeURIComponent(name)}/publish`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

const linkIds = async (
  t: TestApp,
  name: string,
): Promise<string[] | number> => {
  const got = await t.json<{ config: { allLinks: Record<string, unknown> } }>(
    `/published/configs/${encodeURIComponent(name)}`,
  );
  return got.status === 200
    ? Object.keys(got.body.config.allLinks)
    : got.status;
};

describe('publishing: drafts, publish, rollback, unpublish', () => {
  it('publishes the head, keeps drafts out of /published, rolls back to an older revision and unpublishes', async () => {
    const t = createTestApp();
    await t.put('site-a/menu', menu('one'));
    expect(await linkIds(t, 'site-a/menu')).toBe(404);
    const first = await publish(t, 'site-a/menu');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      name: 'site-a/menu',
      rev: 1,
      origins: null,
    });
    await t.put('site-a/menu', menu('one', 'draft'));
    // The draft is the head; the published view still serves revision 1.
    expect(await linkIds(t, 'site-a/menu')).toEqual(['one']);
    expect((await publish(t, 'site-a/menu')).body).toMatchObject({ rev: 2 });
    expect(await linkIds(t, 'site-a/menu')).toEqual(['one', 'draft']);
    // Rollback: publish the older revision.
    expect(
      (await publish(t, 'site-a/menu', { body: { rev: 1 } })).body,
    ).toMatchObject({
      rev: 1,
    });
    expect(await linkIds(t, 'site-a/menu')).toEqual(['one']);
    expect((await t.json('/configs/site-a%2Fmenu/publish')).body).toMatchObject(
      { rev: 1 },
    );
    const gone = await t.json('/configs/site-a%2Fmenu/publish', {
      method: 'DELETE',
    });
    expect(gone).toEqual({
      status: 200,
      body: { name: 'site-a/menu', rev: 1 },
    });
    expect(await linkIds(t, 'site-a/menu')).toBe(404);
    expect((await t.json('/configs/site-a%2Fmenu/publish')).status).toBe(404);
    // The log holds each publish and the unpublish, with who and when.
    const page = await t.repository.readLog({ after: 0, limit: 100 });
    if (page.reset) throw new Error('reset');
    expect(
      page.events.map((e) => [e.type, (e.detail as { rev: number }).rev]),
    ).toEqual([
      ['publish', 1],
      ['publish', 2],
      ['publish', 1],
      ['unpublish', 1],
    ]);
  });

  it('honours If-Match against the head, refuses unknown names and revisions', async () => {
    const t = createTestApp();
    const put = await t.put('n', menu('a'));
    const etag = put.headers.get('etag') ?? '';
    await t.put('n', menu('a', 'b'));
    const stale = await publish(t, 'n', { headers: { 'If-Match': etag } });
    expect(stale.status).toBe(412);
    expect(await linkIds(t, 'n')).toBe(404);
    expect((await publish(t, 'missing')).status).toBe(404);
    const noRev = await publish(t, 'n', { body: { rev: 9 } });
    expect(noRev.status).toBe(404);
    expect(noRev.body).toEqual({
      error: 'config "n" has no revision 9 with content',
    });
    expect((await publish(t, 'n', { body: { rev: 0 } })).status).toBe(400);
    expect(
      (await publish(t, 'n', { body: { origins: ['https://a.example/path'] } }))
        .status,
    ).toBe(400);
  });

  it('keeps the origins of the record when a publish names none; null allows any', async () => {
    const t = createTestApp();
    await t.put('n', menu('a'));
    const origins = ['https://site-a.example'];
    expect((await publish(t, 'n', { body: { origins } })).body).toMatchObject({
      origins,
    });
    await t.put('n', menu('a', 'b'));
    expect((await publish(t, 'n')).body).toMatchObject({ rev: 2, origins });
    expect(
      (await publish(t, 'n', { body: { origins: null } })).body,
    ).toMatchObject({
      origins: null,
    });
  });
});

describe('publishing: who may', () => {
  it('a write key drafts but cannot publish (403); a publish key only within its patterns', async () => {
    const t = createTestApp({ auth: { apiToken: 'admin-token' } });
    const keys = t.services.keys;
    const writer = await keys.create({
      label: 'editor',
      scope: 'write',
      configs: ['site-a/*'],
    });
    const reviewer = await keys.create({
      label: 'reviewer',
      scope: 'publish',
      configs: ['site-a/*'],
    });
    const put = await t.put('site-a/menu', menu('a'), bearer(writer.secret));
    expect(put.status).toBe(204);
    await t.put('site-b/menu', menu('b'), bearer('admin-token'));
    const byWriter = await publish(t, 'site-a/menu', {
      headers: bearer(writer.secret),
    });
    expect(byWriter).toEqual({
      status: 403,
      body: { error: 'publishing needs a key with publish or admin scope' },
    });
    expect(
      (
        await t.json('/configs/site-a%2Fmenu/publish', {
          method: 'DELETE',
          headers: bearer(writer.secret),
        })
      ).status,
    ).toBe(403);
    const outside = await publish(t, 'site-b/menu', {
      headers: bearer(reviewer.secret),
    });
    expect(outside).toEqual({
      status: 403,
      body: { error: 'this key may not publish "site-b/menu"' },
    });
    expect(await linkIds(t, 'site-b/menu')).toBe(404);
    const ok = await publish(t, 'site-a/menu', {
      headers: bearer(reviewer.secret),
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      publishedBy: { id: reviewer.id, label: 'reviewer' },
    });
    // A publish key writes drafts too (publish covers write).
    expect(
      (await t.put('site-a/menu', menu('a', 'c'), bearer(reviewer.secret)))
        .status,
    ).toBe(204);
  });
});
