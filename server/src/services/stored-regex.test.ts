import fc from 'fast-check';
import type { SearchField, SearchInput } from '@linkconfig/shared';
import { SEARCH_FIELDS } from '@linkconfig/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { VersionCache } from '../cache/cache-policy.js';
import { SummaryIndex } from '../cache/summary-index.js';
import { createMemoryConfigRepository } from '../storage/memory/memory-config-repository.js';
import type { ConfigRepository } from '../storage/config-repository.js';
import { ConfigVersion } from '../versions/config-version.js';
import { ConfigService } from './config-service.js';
import { SearchService } from './search-service.js';

type SearchOutcome = Awaited<ReturnType<SearchService['searchOutcome']>>;

/**
 * Texts that fold, escape or sanitize in every way the stored-text shortcut must respect: case variants,
 * the Kelvin sign and the long s (which fold to ASCII), `İ` (two code units once folded), a final sigma,
 * quotes, backslashes, a tab, a slash (`\/` in JSON), an emoji, and the words of `about:blank`.
 */
const WORDS = [
  'Sun',
  'ſun',
  'KEY',
  'key',
  '\u212aey',
  'İstanbul',
  'istanbul',
  'é',
  'É',
  'ΟΔΟΣ',
  'οδος',
  'a"b',
  'a\\b',
  'tab\there',
  'ab/cd',
  'x y',
  'blank',
  'About',
  '😀',
  'q',
];
const text = fc
  .array(fc.constantFrom(...WORDS), { maxLength: 4 })
  .map((w) => w.join(' '));
const url = fc.oneof(
  text.map((t) => `https://h/${t}`),
  fc.constantFrom(
    'javascript:alert(1)',
    'JavaScript :sun',
    'data:text/html,key',
    'about:blank',
  ),
);
/** A link as stored (some entries are no search link: no string `url`). */
const storedLink = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record(
      {
        url,
        label: text,
        description: text,
        tags: fc.array(fc.oneof(fc.constantFrom(...WORDS), fc.constant(7)), {
          maxLength: 3,
        }),
        image: url,
      },
      { requiredKeys: ['url'] },
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      { label: 'sun' },
      { url: 5, label: 'key' },
      'sun',
    ),
  },
);
const storedConfig = fc
  .array(fc.tuple(fc.constantFrom('l', 'L/', 'é', 'Key'), storedLink), {
    maxLength: 8,
  })
  .map((links) => ({
    allLinks: Object.fromEntries(links.map(([id, l], i) => [`${id}${i}`, l])),
  }));

/**
 * `value` as JSON text, each character of a string written as itself, as `\uXXXX` (either case of hex) or
 * as `\/` as `escapes` says (one choice per character, in turn; none when `escapes` is empty).
 */
function writeJson(value: unknown, escapes: readonly number[]): string {
  let turn = 0;
  const string = (s: string): string => {
    let out = '"';
    for (const c of s) {
      const choice =
        escapes.length === 0 ? 0 : (escapes[turn++ % escapes.length] ?? 0);
      if (c === '"' || c === '\\' || c < ' ')
        out += JSON.stringify(c).slice(1, -1);
      else if (choice === 1) {
        for (const unit of c.split('')) {
          out += `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`;
        }
      } else if (choice === 2) {
        for (const unit of c.split('')) {
          out += `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`;
        }
      } else if (choice === 3 && c === '/') out += '\\/';
      else out += c;
    }
    return `${out}"`;
  };
  const write = (v: unknown): string => {
    if (typeof v === 'string') return string(v);
    if (Array.isArray(v)) return `[${v.map(write).join(', ')}]`;
    if (typeof v === 'object' && v !== null) {
      return `{${Object.entries(v)
        .map(([k, x]) => `${string(k)}: ${write(x)}`)
        .join(',')}}`;
    }
    return JSON.stringify(v);
  };
  return write(value);
}

/** Patterns with literals that the texts above hold in one form or another, and some without. */
const pattern = fc.constantFrom(
  'sun',
  'SUN',
  'key\\b',
  '\\bkey\\b',
  'kEy',
  'istanbul',
  'İstanbul',
  'é',
  'οδος',
  'ΟΔΟΣ',
  'a"b',
  'a\\\\b',
  'tab\\there',
  'ab/cd',
  'x y',
  '(sun|key) \\w+',
  'blank',
  'about:bl',
  'bl.nk',
  'javascript',
  'alert',
  'h/q',
  '😀',
  'l0',
  'zz',
  '[a-z]+',
);

afterEach(() => {
  vi.restoreAllMocks();
});

/** Config services over `repository` whose version cache holds nothing, or everything. */
function configsOver(repository: ConfigRepository, cacheBytes: number) {
  return new ConfigService({
    repository,
    cache: new VersionCache<ConfigVersion>(cacheBytes),
    now: () => new Date(0),
  });
}

describe('regex searches of configs read from storage (stored-regex.ts)', () => {
  it('answer as the search index does, whatever the stored text escapes, folds or sanitizes, without building an index', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.tuple(
            storedConfig,
            fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 7 }),
          ),
          { minLength: 1, maxLength: 4 },
        ),
        fc.record({
          regex: pattern,
          fields: fc.subarray([...SEARCH_FIELDS], { minLength: 1 }),
          limit: fc.integer({ min: 1, max: 12 }),
        }),
        async (stored, { regex, fields, limit }) => {
          const repository = createMemoryConfigRepository();
          for (const [c, [config, escapes]] of stored.entries()) {
            await repository.put(`c${c}`, writeJson(config, escapes));
          }
          // Every version held, each searched through its index.
          const warmConfigs = configsOver(repository, 1024 ** 3);
          for (const { name, version } of await warmConfigs.versions()) {
            await warmConfigs.at(name, version);
          }
          const warm = new SearchService(warmConfigs);
          // No version held; every config summarized by a first search that reads them all.
          const cold = new SearchService(
            configsOver(repository, 4096),
            undefined,
            {
              summaries: new SummaryIndex({ budget: 1024 ** 2 }),
            },
          );
          const input = (l: number): SearchInput => ({
            tag: undefined,
            q: undefined,
            regex,
            config: undefined,
            fields: fields as SearchField[],
            limit: l,
          });
          await cold.search({ ...input(1000), regex: 'qqqq' });
          const limits = [1000, limit];
          const expected = await Promise.all(
            limits.map((l) => warm.search(input(l))),
          );
          const builds = vi.spyOn(
            ConfigVersion.prototype,
            'searchIndexInSlices',
          );
          const found: SearchOutcome[] = [];
          try {
            for (const l of limits)
              found.push(await cold.searchOutcome(input(l)));
          } finally {
            builds.mockRestore();
          }
          expect(builds).not.toHaveBeenCalled();
          for (const [i, { value, text }] of found.entries()) {
            const { linksScanned: _, ...answer } = value;
            const { linksScanned: __, ...wanted } = expected[i] ?? {};
            expect(answer, regex).toEqual(wanted);
            expect(text?.()).toBe(JSON.stringify(value));
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('index a config read from storage when the version cache keeps it, and only then', async () => {
    const repository = createMemoryConfigRepository();
    for (const n of [0, 1, 2]) {
      await repository.put(
        `c${n}`,
        JSON.stringify({
          allLinks: { a: { url: 'https://h/', label: `sun ${n}` } },
        }),
      );
    }
    const summaries = new SummaryIndex({ budget: 1024 ** 2 });
    const input: SearchInput = {
      tag: undefined,
      q: undefined,
      regex: 'sun \\d',
      config: undefined,
      fields: ['label'],
      limit: 100,
    };
    // A first search summarizes every config; its cache keeps none.
    const small = configsOver(repository, 4096);
    await new SearchService(small, undefined, { summaries }).search(input);
    const large = configsOver(repository, 1024 ** 3);
    const found = await new SearchService(large, undefined, {
      summaries,
    }).search(input);
    expect(found.results.map((r) => r.configName)).toEqual(['c0', 'c1', 'c2']);
    for (const { name, version } of await large.versions()) {
      expect(large.cachedAt(name, version)?.builtSearchIndex).toBeDefined();
      expect(small.cachedAt(name, version)).toBeUndefined();
    }
  });
});
