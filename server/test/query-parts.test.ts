/**
 * `POST /query` over several stored configs resolves over the parts when the last one decides every key
 * (`decidingPart`), reads an expression of named links and tags from the parts (`overParts`), and
 * otherwise resolves over their merge: either way the answer equals the engine's resolution of the merged
 * stored configs (results, order, `limit`), over REST (the kept texts) and tRPC.
 */
import { describe, expect, it } from 'vitest';
import { overlayConfigs, prepareConfig, resolve } from '@linkconfig/shared';
import { createTestApp } from './test-app.js';
import type { TestApp } from './test-app.js';

const NOW = Date.UTC(2024, 5, 15, 12);

/** A config of `links` links l0…, like the benchmark's: every config has the same ids and names. */
function config(variant: number, links = 40): Record<string, unknown> {
  const allLinks: Record<string, unknown> = {};
  const tags = ['a', 'b', 'c', 'd'];
  for (let i = 0; i < links; i++) {
    allLinks[`l${i}`] = {
      url: `https://h${variant}.example/${i}`,
      label: `${variant % 2 === 0 ? 'Alpha' : 'beta'} ${(i * 7 + variant) % 13}`,
      description: i % 3 === variant % 3 ? 'guide to things' : 'notes',
      tags: [tags[(i + variant) % 4], tags[(i * variant) % 4]],
      createdAt: NOW - ((i * 37 + variant * 11) % 50) * 86_400_000,
    };
  }
  return {
    allLinks,
    macros: {
      favorites: {
        linkItems: `l${variant}, l${variant + 3}, .${tags[variant % 4]}`,
      },
      picks: { linkItems: variant % 2 === 0 ? '.a + .b' : '.c | l1' },
    },
    searchPatterns: {
      p0: variant % 2 === 0 ? 'guide' : 'alpha',
      p1: { pattern: 'beta', options: { limit: 3 + variant, sort: 'newest' } },
    },
  };
}

const EXPRESSIONS = [
  '.a + .b | l5',
  '.a | .c *limit:7*',
  '@favorites - .d',
  '(.a | .b) + .c, l9',
  '.b - .a *sort:label* *limit:12*',
  '@picks, .c *skip:2*',
  '/p0/ | .d',
  '/p1/, /p0/lt *reverse*',
  '.a *sort:createdAt* *reverse* *limit:5*',
  'l3, l1, l3, .b *unique*',
  '@favorites @picks',
  'zz | @nope | /nope/',
];

async function app(configs: Record<string, unknown>): Promise<TestApp> {
  const t = createTestApp();
  t.setNow(new Date(NOW).toISOString());
  for (const [name, value] of Object.entries(configs)) await t.put(name, value);
  return t;
}

/** What the engine gives for the merge of the stored configs, as `/query` answers it. */
function expected(configs: readonly unknown[], expression: string) {
  return resolve(prepareConfig(overlayConfigs(configs)), expression, {
    now: NOW,
  });
}

async function restAnswer(t: TestApp, body: unknown): Promise<unknown> {
  const response = await t.post('/query', body);
  expect(response.status).toBe(200);
  return ((await response.json()) as { results: unknown }).results;
}

describe('POST /query over several configs', () => {
  it('answers as the merge when the last config holds every key of the others', async () => {
    const stored = { c0: config(0), c1: config(1), c2: config(2) };
    const t = await app(stored);
    for (const names of [
      ['c0', 'c1', 'c2'],
      ['c2', 'c0', 'c1'],
      ['c1', 'c1', 'c0'],
    ]) {
      const configs = names.map((n) => stored[n as keyof typeof stored]);
      for (const expression of EXPRESSIONS) {
        const want = expected(configs, expression);
        expect(await restAnswer(t, { expression, configs: names })).toEqual(
          want,
        );
      }
    }
  });

  it('answers as the merge when parts overlap partly or come in another order', async () => {
    const small = config(3, 12);
    const reordered: Record<string, unknown> = {};
    const links = (config(4) as { allLinks: Record<string, unknown> }).allLinks;
    for (const id of Object.keys(links).reverse()) reordered[id] = links[id];
    const stored = {
      big: config(1),
      small,
      reordered: { ...config(4), allLinks: reordered },
      other: { allLinks: { x: { url: 'https://x', tags: ['a'] } } },
    };
    const t = await app(stored);
    for (const names of [
      ['big', 'small'],
      ['small', 'big'],
      ['big', 'reordered'],
      ['other', 'big'],
      ['big', 'other'],
    ]) {
      const configs = names.map((n) => stored[n as keyof typeof stored]);
      for (const expression of EXPRESSIONS) {
        expect(await restAnswer(t, { expression, configs: names })).toEqual(
          expected(configs, expression),
        );
      }
    }
  });

  it('answers the same with inline parts', async () => {
    const stored = { c0: config(0) };
    const t = await app(stored);
    const inline = config(5);
    for (const expression of EXPRESSIONS) {
      expect(
        await restAnswer(t, { expression, configs: ['c0', inline] }),
      ).toEqual(expected([stored.c0, inline], expression));
    }
  });
});
