import { describe, expect, it } from 'vitest';
import type { AccessKey, CreateKeyOutput } from '@linkconfig/shared';
import { createTestApp } from './test-app.js';

const bearer = (secret: string) => ({ Authorization: `Bearer ${secret}` });

/** An app with one admin key (so the server is no longer open), and helpers. */
async function setup() {
  const t = createTestApp();
  const admin = await t.services.keys.create({
    label: 'admin',
    scope: 'admin',
    configs: ['*'],
  });
  return { t, admin };
}

describe('/keys (admin scope only)', () => {
  it('creates a key (201, secret once), lists keys without secrets, revokes (204)', async () => {
    const { t, admin } = await setup();
    t.setNow('2026-03-01T11:00:00.000Z');
    const created = await t.post(
      '/keys',
      { label: 'site A editor', scope: 'write', configs: ['site-a/*'] },
      bearer(admin.secret),
    );
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    const key = (await created.json()) as CreateKeyOutput;
    expect(key.secret).toMatch(/^lck_[A-Za-z0-9_-]{43}$/);
    expect(key).toMatchObject({
      label: 'site A editor',
      scope: 'write',
      configs: ['site-a/*'],
      expiresAt: null,
      revokedAt: null,
    });

    const listed = await t.json<{ keys: AccessKey[] }>('/keys', {
      headers: bearer(admin.secret),
    });
    expect(listed.status).toBe(200);
    expect(listed.body.keys.map((k) => k.label)).toEqual([
      'admin',
      'site A editor',
    ]);
    const text = JSON.stringify(listed.body);
    expect(text).not.toContain(key.secret);
    expect(text).not.toContain(admin.secret);
    expect(text).not.toMatch(/secret|hash/i);

    // The new key works, then is refused once revoked.
    expect(
      (await t.put('site-a/menu', { allLinks: {} }, bearer(key.secret))).status,
    ).toBe(204);
    const revoked = await t.request(`/keys/${key.id}`, {
      method: 'DELETE',
      headers: bearer(admin.secret),
    });
    expect(revoked.status).toBe(204);
    const refused = await t.request('/configs', {
      headers: bearer(key.secret),
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer');
    expect(await refused.json()).toEqual({ error: 'the key was revoked' });
    const again = await t.json<{ keys: AccessKey[] }>('/keys', {
      headers: bearer(admin.secret),
    });
    expect(again.body.keys[1]?.revokedAt).not.toBeNull();
  });

  it('answers 404 for an unknown id and 400 for bad input', async () => {
    const { t, admin } = await setup();
    const missing = await t.request('/keys/key_nope', {
      method: 'DELETE',
      headers: bearer(admin.secret),
    });
    expect(missing.status).toBe(404);
    for (const body of [
      { label: '', scope: 'read', configs: ['*'] },
      { label: 'x', scope: 'owner', configs: ['*'] },
      { label: 'x', scope: 'read', configs: [] },
      { label: 'x', scope: 'read', configs: ['a,b'] },
      { label: 'x', scope: 'read', configs: ['*'], expiresAt: 'soon' },
    ]) {
      const answer = await t.post('/keys', body, bearer(admin.secret));
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys((await answer.json()) as object)).toEqual(['error']);
    }
  });

  it('refuses callers without admin scope: 401 without a key, 403 with a write key', async () => {
    const { t } = await setup();
    const writer = await t.services.keys.create({
      label: 'w',
      scope: 'write',
      configs: ['*'],
    });
    const none = await t.request('/keys');
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    expect(
      (await t.request('/keys', { headers: bearer(writer.secret) })).status,
    ).toBe(403);
    const post = await t.post(
      '/keys',
      { label: 'x', scope: 'admin', configs: ['*'] },
      bearer(writer.secret),
    );
    expect(post.status).toBe(403);
    expect(
      (
        await t.request(`/keys/${writer.id}`, {
          method: 'DELETE',
          headers: bearer(writer.secret),
        })
      ).status,
    ).toBe(403);
  });

  it('refuses an expired key with 401', async () => {
    const { t } = await setup();
    const old = await t.services.keys.create({
      label: 'old',
      scope: 'read',
      configs: ['*'],
      expiresAt: '2026-03-01T10:30:00Z',
    });
    t.setNow('2026-03-01T10:30:00.000Z');
    const answer = await t.request('/configs', { headers: bearer(old.secret) });
    expect(answer.status).toBe(401);
    expect(await answer.json()).toEqual({ error: 'the key has expired' });
  });

  it('serves the same operations over tRPC', async () => {
    const { t, admin } = await setup();
    const answer = await t.post(
      '/trpc/keys.create',
      { label: 'r', scope: 'read', configs: ['docs'] },
      bearer(admin.secret),
    );
    expect(answer.status).toBe(200);
    const { result } = (await answer.json()) as {
      result: { data: CreateKeyOutput };
    };
    expect(result.data.secret).toMatch(/^lck_/);
    const refused = await t.request('/trpc/keys.list', {
      headers: bearer(result.data.secret),
    });
    expect(refused.status).toBe(403);
    const anonymous = await t.request('/trpc/keys.list');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('records who wrote: the key id and label reach the repository', async () => {
    const { t, admin } = await setup();
    const authors: unknown[] = [];
    const put = t.repository.put.bind(t.repository);
    t.repository.put = (name, json, options) => {
      authors.push(options?.author);
      return put(name, json, options);
    };
    await t.put('n', { allLinks: {} }, bearer(admin.secret));
    expect(authors).toEqual([{ id: admin.id, label: 'admin' }]);
  });
});

describe('GET /access', () => {
  it('says what the caller may do: scope, patterns, key, and what anyone may read', async () => {
    const t = createTestApp({ auth: { anonymousRead: ['public/*'] } });
    const editor = await t.services.keys.create({
      label: 'site A editor',
      scope: 'write',
      configs: ['site-a/*'],
    });
    expect(
      (
        await t.json('/access', {
          headers: { Authorization: `Bearer ${editor.secret}` },
        })
      ).body,
    ).toEqual({
      scope: 'write',
      configs: ['site-a/*'],
      anonymousRead: ['public/*'],
      key: { id: editor.id, label: 'site A editor' },
    });
    expect((await t.json('/access')).body).toEqual({
      scope: null,
      configs: [],
      anonymousRead: ['public/*'],
      key: null,
    });
    const closed = createTestApp({
      auth: { apiToken: 'a', anonymousRead: [] },
    });
    expect((await closed.request('/access')).status).toBe(401);
  });
});

describe('deleted names and the audit trail follow the read patterns', () => {
  it('a key for site-a/* learns nothing of a deleted secret/ config', async () => {
    // Anonymous callers may read nothing here, so the key's patterns are all it reads.
    const t = createTestApp({ auth: { anonymousRead: [] } });
    const admin = await t.services.keys.create({
      label: 'admin',
      scope: 'admin',
      configs: ['*'],
    });
    const reader = await t.services.keys.create({
      label: 'site A reader',
      scope: 'read',
      configs: ['site-a/*'],
    });
    for (const name of ['site-a/old', 'secret/old']) {
      await t.put(name, { allLinks: {} }, bearer(admin.secret));
      const gone = await t.request(`/configs/${encodeURIComponent(name)}`, {
        method: 'DELETE',
        headers: bearer(admin.secret),
      });
      expect(gone.status).toBe(204);
    }
    const asAdmin = await t.json<string[]>('/configs?deleted=true', {
      headers: bearer(admin.secret),
    });
    expect(asAdmin.body).toEqual(['secret/old', 'site-a/old']);
    const asReader = await t.json<string[]>('/configs?deleted=true', {
      headers: bearer(reader.secret),
    });
    expect(asReader.body).toEqual(['site-a/old']);
    const trail = await t.request('/history', {
      headers: bearer(reader.secret),
    });
    expect(trail.status).toBe(200);
    expect(await trail.text()).not.toContain('secret/');
    // Nor does a page's `next`, or a trail asked for by the hidden name: it answers like no history.
    const after = await t.json<{ entries: { name: string }[]; next: unknown }>(
      '/history?since=2&limit=1',
      { headers: bearer(reader.secret) },
    );
    expect(after.body).toEqual({ entries: [], next: null });
    const named = await t.json(
      `/history?config=${encodeURIComponent('secret/old')}&limit=1`,
      { headers: bearer(reader.secret) },
    );
    expect(named.body).toEqual({ entries: [], next: null });
    const adminPage = await t.json<{ entries: { name: string }[] }>(
      '/history?since=2&limit=1',
      { headers: bearer(admin.secret) },
    );
    expect(adminPage.body.entries.map((e) => e.name)).toEqual(['secret/old']);
    // A deleted config's history is as missing as the config itself.
    const history = await t.request(
      `/configs/${encodeURIComponent('secret/old')}/history`,
      { headers: bearer(reader.secret) },
    );
    expect(history.status).toBe(404);
  });
});

describe('keys that manage keys: only keys within their own scope and patterns (issue 29, item 1)', () => {
  /** A global admin, a site-a admin, a site-b writer, and a config only the global admin may read. */
  async function managers() {
    const t = createTestApp({ auth: { anonymousRead: [] } });
    const global = await t.services.keys.create({
      label: 'global admin',
      scope: 'admin',
      configs: ['*'],
    });
    const siteA = await t.services.keys.create({
      label: 'site A admin',
      scope: 'admin',
      configs: ['site-a/*'],
    });
    const siteB = await t.services.keys.create({
      label: 'site B editor',
      scope: 'write',
      configs: ['site-b/*'],
    });
    await t.put('secret/plans', { allLinks: {} }, bearer(global.secret));
    return { t, global, siteA, siteB };
  }

  it('a site-a admin cannot make a key beyond its patterns or scope, and nothing is stored', async () => {
    const { t, global, siteA } = await managers();
    expect(
      (
        await t.request('/configs/secret%2Fplans', {
          headers: bearer(siteA.secret),
        })
      ).status,
    ).toBe(404);
    for (const configs of [
      ['*'],
      ['secret/*'],
      ['site-*'],
      ['site-a/*', 'x'],
    ]) {
      const answer = await t.post(
        '/keys',
        { label: 'x', scope: 'admin', configs },
        bearer(siteA.secret),
      );
      expect(answer.status, configs.join()).toBe(403);
      expect(await answer.json()).toEqual({
        error: expect.stringMatching(/beyond its own patterns \(site-a\/\*\)/),
      });
    }
    // Its own scope is the highest: an admin key for its own names it may make.
    const inside = await t.post(
      '/keys',
      { label: 'site A menu admin', scope: 'admin', configs: ['site-a/menu*'] },
      bearer(siteA.secret),
    );
    expect(inside.status).toBe(201);
    const all = await t.json<{ keys: AccessKey[] }>('/keys', {
      headers: bearer(global.secret),
    });
    expect(all.body.keys.map((k) => k.label).sort()).toEqual([
      'global admin',
      'site A admin',
      'site A menu admin',
      'site B editor',
    ]);
  });

  it('a key cannot make a key of a scope above its own (the scope order of KEY_SCOPES)', async () => {
    const { t, siteA } = await managers();
    const answer = await t.services.keys
      .create(
        { label: 'x', scope: 'admin', configs: ['site-a/x'] },
        { scope: 'write', configs: ['site-a/*'] },
      )
      .then(
        () => 'created',
        (error: unknown) => (error as Error).message,
      );
    expect(answer).toMatch(/scope admin, above its own \(write\)/);
    expect(
      (
        await t.post(
          '/keys',
          { label: 'r', scope: 'read', configs: ['site-a/x'] },
          bearer(siteA.secret),
        )
      ).status,
    ).toBe(201);
  });

  it('lists only the keys within its own, and cannot revoke the others (404, as for no key)', async () => {
    const { t, global, siteA, siteB } = await managers();
    const listed = await t.request('/keys', { headers: bearer(siteA.secret) });
    expect(listed.status).toBe(200);
    const text = await listed.text();
    expect(
      (JSON.parse(text) as { keys: AccessKey[] }).keys.map((k) => k.label),
    ).toEqual(['site A admin']);
    expect(text).not.toMatch(/global admin|site B|site-b/);
    expect(text).not.toContain('"*"');
    for (const id of [global.id, siteB.id, 'key_nope']) {
      const answer = await t.request(`/keys/${id}`, {
        method: 'DELETE',
        headers: bearer(siteA.secret),
      });
      expect(answer.status).toBe(404);
      expect(await answer.json()).toEqual({
        error: `no key has the id "${id}"`,
      });
    }
    // Nothing was revoked: the global admin and the site B editor still work.
    expect(
      (await t.request('/keys', { headers: bearer(global.secret) })).status,
    ).toBe(200);
    expect(
      (await t.put('site-b/menu', { allLinks: {} }, bearer(siteB.secret)))
        .status,
    ).toBe(204);
    // Over tRPC the same.
    const trpc = await t.request('/trpc/keys.list', {
      headers: bearer(siteA.secret),
    });
    const { result } = (await trpc.json()) as {
      result: { data: { keys: AccessKey[] } };
    };
    expect(result.data.keys.map((k) => k.label)).toEqual(['site A admin']);
  });

  it('a global admin still makes, lists and revokes every key', async () => {
    const { t, global, siteA, siteB } = await managers();
    const made = await t.post(
      '/keys',
      { label: 'another global', scope: 'admin', configs: ['*'] },
      bearer(global.secret),
    );
    expect(made.status).toBe(201);
    const listed = await t.json<{ keys: AccessKey[] }>('/keys', {
      headers: bearer(global.secret),
    });
    expect(listed.body.keys).toHaveLength(4);
    for (const id of [siteA.id, siteB.id]) {
      expect(
        (
          await t.request(`/keys/${id}`, {
            method: 'DELETE',
            headers: bearer(global.secret),
          })
        ).status,
      ).toBe(204);
    }
    expect(
      (await t.request('/keys', { headers: bearer(siteA.secret) })).status,
    ).toBe(401);
    // API_TOKEN is a global admin too.
    const withToken = createTestApp({ auth: { apiToken: 'token-x' } });
    expect(
      (
        await withToken.post(
          '/keys',
          { label: 'g', scope: 'admin', configs: ['*'] },
          bearer('token-x'),
        )
      ).status,
    ).toBe(201);
  });
});

describe('a new key must expire ahead of now (issue 29, item 12)', () => {
  it('POST /keys with an expiresAt in the past or now is 400, and nothing is stored', async () => {
    const { t, admin } = await setup();
    for (const expiresAt of [
      '2020-01-01T00:00:00Z',
      '2026-03-01T10:00:00.000Z',
    ]) {
      const answer = await t.post(
        '/keys',
        { label: 'born expired', scope: 'read', configs: ['*'], expiresAt },
        bearer(admin.secret),
      );
      expect(answer.status).toBe(400);
      expect(await answer.json()).toEqual({
        error: `expiresAt must lie in the future; got "${expiresAt}"`,
      });
    }
    const ahead = await t.post(
      '/keys',
      {
        label: 'later',
        scope: 'read',
        configs: ['*'],
        expiresAt: '2026-03-01T10:00:01Z',
      },
      bearer(admin.secret),
    );
    expect(ahead.status).toBe(201);
    const listed = await t.json<{ keys: AccessKey[] }>('/keys', {
      headers: bearer(admin.secret),
    });
    expect(listed.body.keys.map((k) => k.label).sort()).toEqual([
      'admin',
      'later',
    ]);
  });
});
