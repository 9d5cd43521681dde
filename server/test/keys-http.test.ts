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
      expiresAt: '2020-01-01T00:00:00Z',
    });
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
