/**
 * `/search` keeps compiled patterns (`regex`, `config`) in the `patterns` cache: pages of one pattern,
 * in other spellings of the request, answer exactly as a server that compiles every time (results,
 * order, `limit`, counts), and invalid patterns are refused every time.
 */
import { describe, expect, it } from 'vitest';
import { createTestApp, sampleConfig } from './test-app.js';
import type { TestApp } from './test-app.js';

async function seeded(cacheBytes?: number): Promise<TestApp> {
  const t = createTestApp(cacheBytes === undefined ? {} : { cacheBytes });
  await t.put('s', sampleConfig());
  const allLinks: Record<string, unknown> = {};
  for (let i = 0; i < 30; i++) {
    allLinks[`l${i}`] = {
      url: `https://h.example/${i}`,
      label: `${i % 2 === 0 ? 'City guide' : 'Park walk'} ${i}`,
      description: i % 3 === 0 ? 'guide to the city park' : 'notes',
      tags: ['t'],
    };
  }
  await t.put('a', { allLinks });
  await t.put('b', { allLinks });
  return t;
}

const PATTERNS = ['\\b(guide|park)\\s+\\w+', '^city', 'walk \\d+$', 'p(a|e)rk'];

describe('compiled search patterns', () => {
  it('answer every page as compiling each time does, and are reused', async () => {
    const kept = await seeded();
    // A budget too small to keep any pattern: every request compiles.
    const fresh = await seeded(1024);
    for (const pattern of PATTERNS) {
      for (const [limit, fields, config] of [
        [3, 'label,description', undefined],
        [10, 'description,label', undefined],
        [25, 'label', 'a|b'],
        [100, 'label,description,url', '^b'],
      ] as const) {
        const query = new URLSearchParams({
          regex: pattern,
          limit: String(limit),
          fields,
          ...(config === undefined ? {} : { config }),
        });
        const path = `/search?${query}`;
        const a = await kept.json(path);
        const b = await fresh.json(path);
        expect(a.status).toBe(200);
        expect(a).toEqual(b);
      }
    }
    const stats = kept.services.caches.patterns.stats();
    expect(stats.entries).toBe(PATTERNS.length + 2);
    expect(stats.hits).toBeGreaterThan(0);
    expect(fresh.services.caches.patterns.stats().entries).toBe(0);
  });

  it('refuses an invalid pattern every time, keeping nothing', async () => {
    const t = await seeded();
    for (const limit of [1, 2]) {
      const { status, body } = await t.json<{ error: string }>(
        `/search?regex=${encodeURIComponent('(a')}&limit=${limit}`,
      );
      expect(status).toBe(400);
      expect(body.error).toMatch(/regex is not a valid regular expression/);
    }
    expect(t.services.caches.patterns.stats().entries).toBe(0);
  });
});
