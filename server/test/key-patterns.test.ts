/**
 * Issue 29, item 5: a read key with 100 hostile patterns (`*` + 250 × `a` + `b<i>`) over ~220 long
 * config names made every `GET /configs`, `/search` and `/history` take seconds. Matching is linear now
 * (`shared/src/access/name-patterns.properties.test.ts` bounds its comparisons); here: such a key stored
 * before the 32-pattern bound still loads and works, each request matches a name at most once per
 * pattern, and lists and searches work out the names a key may read once per change token.
 */
import { NamePattern } from '@linkconfig/shared';
import type { AccessKey } from '@linkconfig/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { newKeyMaterial, secretHash } from '../src/keys/key-secret.js';
import { createTestApp } from './test-app.js';

const bearer = (secret: string) => ({ Authorization: `Bearer ${secret}` });

const HOSTILE = Array.from(
  { length: 100 },
  (_, i) => `*${'a'.repeat(250)}b${i}`,
);
const LONG_NAMES = Array.from({ length: 220 }, (_, i) =>
  `${'a'.repeat(250)}c${i}`.slice(0, 256),
);

afterEach(() => {
  vi.restoreAllMocks();
});

/** An app with an admin, 220 long names and one readable name, and the hostile key as storage holds it. */
async function hostileSetup() {
  const t = createTestApp({ auth: { anonymousRead: [] } });
  const admin = await t.services.keys.create({
    label: 'admin',
    scope: 'admin',
    configs: ['*'],
  });
  const config = {
    allLinks: { l: { url: 'https://example.org', label: 'x' } },
  };
  for (const name of [...LONG_NAMES, `${'a'.repeat(250)}b7`]) {
    expect((await t.put(name, config, bearer(admin.secret))).status).toBe(204);
  }
  // Made before keys had a bound on their patterns (or restored from a backup): it must still load.
  const { id, secret } = newKeyMaterial();
  await t.repository.keys.insert({
    id,
    label: 'hostile reader',
    scope: 'read',
    configs: HOSTILE,
    secretHash: secretHash(secret),
    expiresAt: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    lastUsedAt: null,
    revokedAt: null,
  });
  return { t, admin, secret };
}

describe('a key with many long patterns (issue 29, item 5)', () => {
  it('still loads and reads exactly what its patterns match', async () => {
    const { t, secret } = await hostileSetup();
    const listed = await t.json<string[]>('/configs', {
      headers: bearer(secret),
    });
    expect(listed).toEqual({ status: 200, body: [`${'a'.repeat(250)}b7`] });
    const search = await t.json<{ configsSearched: number }>('/search?q=x', {
      headers: bearer(secret),
    });
    expect(search.body.configsSearched).toBe(1);
    const history = await t.request('/history?limit=1000', {
      headers: bearer(secret),
    });
    expect(history.status).toBe(200);
    // Names only: a request id is a random UUID and may contain any two hex characters.
    const { entries } = (await history.json()) as {
      entries: { name: string }[];
    };
    expect(new Set(entries.map((e) => e.name))).toEqual(
      new Set([`${'a'.repeat(250)}b7`]),
    );
  });

  it('matches each name against each pattern at most once per change token, whatever the requests', async () => {
    const { t, admin, secret } = await hostileSetup();
    const matches = vi.spyOn(NamePattern.prototype, 'matches');
    const names = LONG_NAMES.length + 1;
    await t.request('/configs', { headers: bearer(secret) });
    expect(matches.mock.calls.length).toBeLessThanOrEqual(
      names * HOSTILE.length,
    );
    matches.mockClear();
    // The same names again (a list with another query string, a search): nothing matched again.
    for (const path of [
      '/configs?deleted=false',
      '/search?q=x',
      '/search?q=y',
    ]) {
      expect((await t.request(path, { headers: bearer(secret) })).status).toBe(
        200,
      );
    }
    expect(matches.mock.calls.length).toBe(0);
    // A write changes the stored names: worked out once more, then kept again.
    await t.put('zz', { allLinks: {} }, bearer(admin.secret));
    await t.request('/configs', { headers: bearer(secret) });
    await t.request('/search?q=x', { headers: bearer(secret) });
    expect(matches.mock.calls.length).toBeLessThanOrEqual(
      (names + 1) * HOSTILE.length,
    );
  });

  it('refuses a new key with more than 32 patterns (400)', async () => {
    const { t, admin } = await hostileSetup();
    const answer = await t.post(
      '/keys',
      { label: 'many', scope: 'read', configs: HOSTILE.slice(0, 33) },
      bearer(admin.secret),
    );
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({
      error: 'configs must have at most 32 patterns',
    });
    const listed = await t.json<{ keys: AccessKey[] }>('/keys', {
      headers: bearer(admin.secret),
    });
    expect(listed.body.keys.map((k) => k.label).sort()).toEqual([
      'admin',
      'hostile reader',
    ]);
  });
});
