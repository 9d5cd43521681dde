import { describe, expect, it } from 'vitest';
import type { CreateHookOutput, Hook, HookLogOutput } from '@linkconfig/shared';
import { createTestApp } from './test-app.js';

const bearer = (secret: string) => ({ Authorization: `Bearer ${secret}` });

const HOOK = {
  url: 'https://receiver.example/linkconfig',
  events: ['change', 'link-broken'],
  configs: ['site-a/*'],
};

/** An app with an admin key for everything and one for `site-a/*`. */
async function setup() {
  const t = createTestApp();
  const admin = await t.services.keys.create({
    label: 'admin',
    scope: 'admin',
    configs: ['*'],
  });
  const siteA = await t.services.keys.create({
    label: 'site A admin',
    scope: 'admin',
    configs: ['site-a/*'],
  });
  const writer = await t.services.keys.create({
    label: 'writer',
    scope: 'write',
    configs: ['*'],
  });
  return { t, admin, siteA, writer };
}

describe('/hooks (admin scope, within the caller patterns)', () => {
  it('creates a hook (201, secret once, at the head of the log), lists without secrets, removes (204)', async () => {
    const { t, admin } = await setup();
    await t.put('site-a/menu', { allLinks: {} }, bearer(admin.secret));
    const created = await t.post('/hooks', HOOK, bearer(admin.secret));
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    const hook = (await created.json()) as CreateHookOutput;
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(hook).toMatchObject({
      ...HOOK,
      cursor: await t.repository.head(),
      attempts: 0,
      failingSince: null,
      lastError: null,
    });
    const listed = await t.json<{ hooks: Hook[] }>('/hooks', {
      headers: bearer(admin.secret),
    });
    expect(listed.status).toBe(200);
    expect(listed.body.hooks.map((h) => h.id)).toEqual([hook.id]);
    expect(JSON.stringify(listed.body)).not.toMatch(/secret|whsec_/);
    const log = await t.json<HookLogOutput>(`/hooks/${hook.id}/log?limit=5`, {
      headers: bearer(admin.secret),
    });
    expect(log).toEqual({
      status: 200,
      body: { id: hook.id, deliveries: [] },
    });
    const removed = await t.request(`/hooks/${hook.id}`, {
      method: 'DELETE',
      headers: bearer(admin.secret),
    });
    expect(removed.status).toBe(204);
    const again = await t.request(`/hooks/${hook.id}`, {
      method: 'DELETE',
      headers: bearer(admin.secret),
    });
    expect(again.status).toBe(404);
    expect(await again.json()).toEqual({
      error: `no hook has the id "${hook.id}"`,
    });
  });

  it('refuses bad hooks with 400 and stores nothing', async () => {
    const { t, admin } = await setup();
    for (const body of [
      { ...HOOK, url: 'ftp://receiver.example/' },
      { ...HOOK, url: 'https://user:pw@receiver.example/' },
      { ...HOOK, url: 'not a url' },
      { ...HOOK, events: [] },
      { ...HOOK, events: ['everything'] },
      { ...HOOK, configs: [] },
      { ...HOOK, configs: ['a,b'] },
      { url: HOOK.url },
    ]) {
      const response = await t.post('/hooks', body, bearer(admin.secret));
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys((await response.json()) as object)).toEqual(['error']);
    }
    expect(await t.repository.hooks.list()).toEqual([]);
  });

  it('an admin key for site-a/* makes, sees and removes only hooks within site-a/*; a write key none', async () => {
    const { t, admin, siteA, writer } = await setup();
    const everything = (await (
      await t.post('/hooks', { ...HOOK, configs: ['*'] }, bearer(admin.secret))
    ).json()) as CreateHookOutput;
    const beyond = await t.post(
      '/hooks',
      { ...HOOK, configs: ['site-a/*', 'site-b/*'] },
      bearer(siteA.secret),
    );
    expect(beyond.status).toBe(403);
    expect(await beyond.json()).toEqual({
      error:
        'this key may not make a hook for "site-b/*": it reaches beyond its own patterns (site-a/*)',
    });
    const own = await t.post(
      '/hooks',
      { ...HOOK, configs: ['site-a/menu'] },
      bearer(siteA.secret),
    );
    expect(own.status).toBe(201);
    const mine = (await own.json()) as CreateHookOutput;
    const listed = await t.json<{ hooks: Hook[] }>('/hooks', {
      headers: bearer(siteA.secret),
    });
    expect(listed.body.hooks.map((h) => h.id)).toEqual([mine.id]);
    for (const path of [`/hooks/${everything.id}/log`]) {
      expect(
        (await t.request(path, { headers: bearer(siteA.secret) })).status,
      ).toBe(404);
    }
    expect(
      (
        await t.request(`/hooks/${everything.id}`, {
          method: 'DELETE',
          headers: bearer(siteA.secret),
        })
      ).status,
    ).toBe(404);
    expect(await t.repository.hooks.get(everything.id)).not.toBeNull();
    expect((await t.post('/hooks', HOOK, bearer(writer.secret))).status).toBe(
      403,
    );
    expect(
      (await t.request('/hooks', { headers: bearer(writer.secret) })).status,
    ).toBe(403);
  });
});
