import { describe, expect, it } from 'vitest';
import { createTestApp } from './test-app.js';

const config = { allLinks: { a: { url: 'https://a.example/', label: 'A' } } };

describe('cache headers of stored revisions (GET /configs/:name/revisions/:rev)', () => {
  it('are immutable for a year, private, varying by Authorization', async () => {
    const t = createTestApp();
    expect((await t.put('site/menu', config)).status).toBe(204);
    const got = await t.request('/configs/site%2Fmenu/revisions/1');
    expect(got.status).toBe(200);
    expect(got.headers.get('cache-control')).toBe(
      'private, max-age=31536000, immutable',
    );
    expect(got.headers.get('vary')).toBe('Accept-Encoding, Authorization');
    // Only a revision that exists: an error is never kept.
    const missing = await t.request('/configs/site%2Fmenu/revisions/2');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('cache-control') ?? '').not.toContain(
      'immutable',
    );
    // The head changes: it still revalidates every time.
    expect(
      (await t.request('/configs/site%2Fmenu')).headers.get('cache-control'),
    ).toBe('no-cache');
  });

  it('stay private when reading needs a key, and a refused read is not kept', async () => {
    const t = createTestApp({
      auth: { apiToken: 'admin-token', anonymousRead: [] },
    });
    const auth = { Authorization: 'Bearer admin-token' };
    expect((await t.put('m', config, auth)).status).toBe(204);
    const got = await t.request('/configs/m/revisions/1', { headers: auth });
    expect(got.status).toBe(200);
    expect(got.headers.get('cache-control')).toBe(
      'private, max-age=31536000, immutable',
    );
    const refused = await t.request('/configs/m/revisions/1');
    expect(refused.status).toBe(401);
    expect(refused.headers.get('cache-control') ?? '').not.toContain('max-age');
  });
});
