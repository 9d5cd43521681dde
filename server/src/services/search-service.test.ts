import fc from 'fast-check';
import { RE2JS } from 're2js';
import { SEARCH_FIELDS } from '@linkconfig/shared';
import type { SearchField } from '@linkconfig/shared';
import { describe, expect, it } from 'vitest';
import { searchLinks } from './test-search-links.js';
import { createMemoryConfigRepository } from '../storage/memory/memory-config-repository.js';
import { createServices } from './services.js';
import { foldCase } from '../versions/fold-case.js';

const WORDS = [
  'ab',
  'ba',
  'Sun',
  'ſun',
  'KEY',
  'key',
  '\u212aey',
  'é',
  'a.b',
  'x y',
  'q',
];
const word = fc.constantFrom(...WORDS);
const link = searchLinks(WORDS, 4);
const configs = fc.array(fc.array(link, { minLength: 1, maxLength: 8 }), {
  minLength: 1,
  maxLength: 3,
});
const regex = fc
  .array(
    fc.tuple(
      fc.constantFrom(
        'ab',
        'sun',
        'key',
        'a\\.b',
        'x y',
        '\\bba\\b',
        '[ab]',
        'é',
        '.',
        '(ab|q)',
        '(sun|key)',
        '(?:ab|ba)',
        '(a\\.b|x y|key)',
        'un',
      ),
      fc.constantFrom('', '', '?', '+', '*'),
    ),
    { minLength: 1, maxLength: 3 },
  )
  .chain((parts) =>
    fc.constantFrom(
      parts.map(([a, q]) => a + q).join(''),
      parts.map(([a]) => a).join('|'),
      // The common-terms shape: a word of several, then another word.
      `\\b(${parts.map(([a]) => a).join('|')})\\s+\\w+`,
      // Those decided without re2js (decided-pattern.ts), and near misses.
      `\\B(?:${parts.map(([a]) => a).join('|')})\\s+\\w*`,
      `\\b(${parts.map(([a]) => a).join('|')})\\W+\\w`,
      `\\b(${parts.map(([a]) => a).join('|')})\\s*\\w+`,
    ),
  );
const fields = fc.subarray([...SEARCH_FIELDS], { minLength: 1 });

/** What `/search` must answer, computed the plain way: every link, every field, re2js and folding. */
function expected(
  all: {
    url: string;
    label?: string;
    description?: string;
    tags: string[];
  }[][],
  query: { tag?: string; regex?: string; q?: string; fields: SearchField[] },
): string[] {
  const compiled =
    query.regex === undefined
      ? undefined
      : RE2JS.compile(query.regex, RE2JS.CASE_INSENSITIVE);
  const out: string[] = [];
  all.forEach((links, c) =>
    links.forEach((l, i) => {
      const texts = (f: SearchField): string[] =>
        f === 'id'
          ? [`l${i}`]
          : f === 'tags'
            ? l.tags
            : f === 'url'
              ? [l.url]
              : typeof l[f] === 'string'
                ? [l[f]]
                : [];
      const some = (test: (t: string) => boolean) =>
        query.fields.some((f) => texts(f).some(test));
      if (query.tag !== undefined && !l.tags.includes(query.tag)) return;
      if (compiled !== undefined && !some((t) => compiled.matcher(t).find()))
        return;
      if (
        query.q !== undefined &&
        !some((t) => foldCase(t).includes(foldCase(query.q ?? '')))
      )
        return;
      out.push(`c${c}/l${i}`);
    }),
  );
  return out;
}

describe('SearchService', () => {
  it('finds exactly what a scan of every link finds, in order and up to the limit, whatever the indexes and prefilters skip (tags, q, regex)', async () => {
    await fc.assert(
      fc.asyncProperty(
        configs,
        fc.oneof(
          fc.record({ regex, fields }),
          fc.record({ q: word, fields }),
          // A tag alone, and with the other criteria (the tag map chooses the candidates).
          fc.record({ tag: word, fields }),
          fc.record({ tag: word, q: word, fields }),
          fc.record({ tag: word, regex, fields }),
        ),
        fc.integer({ min: 1, max: 12 }),
        async (all, query, limit) => {
          const services = createServices({
            repository: createMemoryConfigRepository(),
          });
          for (const [c, links] of all.entries()) {
            const allLinks = Object.fromEntries(
              links.map((l, i) => [`l${i}`, l]),
            );
            await services.configs.put(`c${c}`, { allLinks });
          }
          const input = {
            tag: 'tag' in query ? query.tag : undefined,
            q: 'q' in query ? query.q : undefined,
            regex: 'regex' in query ? query.regex : undefined,
            config: undefined,
            fields: query.fields,
          };
          const whole = expected(all, query);
          const result = await services.search.search({
            ...input,
            limit: 1000,
          });
          expect(result.results.map((r) => `${r.configName}/${r.id}`)).toEqual(
            whole,
          );
          const limited = await services.search.searchOutcome({
            ...input,
            limit,
          });
          const found = limited.value.results;
          expect(found.map((r) => `${r.configName}/${r.id}`)).toEqual(
            whole.slice(0, limit),
          );
          // The configs up to the one where the limit was reached (every one when it was not).
          const last = found.length < limit ? undefined : found.at(-1);
          expect(limited.value.configsSearched).toBe(
            last === undefined
              ? all.length
              : Number(last.configName.slice(1)) + 1,
          );
          expect(limited.text?.()).toBe(JSON.stringify(limited.value));
        },
      ),
      { numRuns: 300 },
    );
  });
});
