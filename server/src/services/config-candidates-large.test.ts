import fc from 'fast-check';
import { SearchInputSchema } from '@linkconfig/shared';
import { describe, expect, it } from 'vitest';
import { createMemoryConfigRepository } from '../storage/memory/memory-config-repository.js';
import { createServices } from './services.js';
import { SearchService } from './search-service.js';

/**
 * Words that collide under case folding (`Sun`, `ſun`), hold a space (`x y`) or share their ends and
 * starts (`noodle`, `needle`; `track`, `trace`), so word pairs of the summaries meet near misses.
 */
const WORDS = [
  'noodle',
  'needle',
  'track',
  'trace',
  'east',
  'feast',
  'Sun',
  'ſun',
  'KEY',
  'x y',
  'hidden',
  'ticket',
];

/** A seeded draw (a linear congruential generator: the configs stay small to describe). */
function draw(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

/** A config of `links` links whose texts are runs of {@link WORDS} drawn from `seed`. */
function config(seed: number, links: number) {
  const next = draw(seed);
  const word = () => WORDS[Math.floor(next() * WORDS.length)] ?? 'east';
  const text = (most: number) =>
    Array.from({ length: 1 + Math.floor(next() * most) }, word).join(' ');
  const allLinks: Record<string, unknown> = {};
  for (let i = 0; i < links; i++) {
    allLinks[`l${i}`] = {
      url: `https://h/${word()}/${i * 7}`,
      // The link's number among the words: a large config holds thousands of distinct terms.
      label: `${text(2)} ${i} ${text(2)}`,
      ...(next() < 0.5
        ? { description: `${text(4)} ${i * 13} ${text(4)}` }
        : {}),
      tags: [word()],
    };
  }
  return { allLinks };
}

const word = fc.constantFrom(...WORDS);
/** The end of one word, a space, the start of another: what only a word pair can rule out. */
const phrase = fc
  .tuple(word, word, fc.nat(4), fc.nat(4))
  .map(([a, b, i, j]) => `${a.slice(i)} ${b.slice(0, b.length - j)}`);
const query = fc.oneof(
  phrase.map((q) => ({ q })),
  fc.tuple(word, word).map(([a, b]) => ({ regex: `${a} ${b}` })),
  fc
    .tuple(word, word, word)
    .map(([a, b, c]) => ({ regex: `(${a}|${b}) ${c}` })),
  fc.tuple(phrase, phrase).map(([a, b]) => ({ regex: `${a}|${b}` })),
);

describe('summaries of large configs (size classes, word pairs), against a search without them', () => {
  it('find exactly what the plain search finds, in order, up to the limit, counting the same configs', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            seed: fc.integer(),
            links: fc.constantFrom(3, 40, 400),
          }),
          { minLength: 1, maxLength: 5 },
        ),
        fc.array(query, { minLength: 1, maxLength: 4 }),
        fc.record({
          limit: fc.constantFrom(1, 3, 20, 1000),
          // A config rewritten at another size (its summary moves to another class) after the first round.
          rewrite: fc.record({
            seed: fc.integer(),
            links: fc.constantFrom(3, 40, 400),
          }),
        }),
        async (configs, queries, { limit, rewrite }) => {
          const services = createServices({
            repository: createMemoryConfigRepository(),
          });
          const plain = new SearchService(services.configs);
          for (const [c, { seed, links }] of configs.entries()) {
            await services.configs.put(`c${c}`, config(seed, links));
          }
          // A search that reads every config summarizes them all.
          await services.search.search(
            SearchInputSchema.parse({ q: 'qzxjvk' }),
          );
          expect(services.caches.summaries.stats().entries).toBe(
            configs.length,
          );
          for (const round of [0, 1]) {
            if (round === 1) {
              await services.configs.put(
                'c0',
                config(rewrite.seed, rewrite.links),
              );
              await services.search.search(
                SearchInputSchema.parse({ q: 'qzvvjw' }),
              );
              // Summarized at its new version, in the class of its new size.
              const [c0] = await services.configs.versions();
              expect(services.caches.summaries.versionOf('c0')).toBe(
                c0?.version,
              );
            }
            for (const q of queries) {
              const input = SearchInputSchema.parse({
                ...q,
                limit: String(limit),
              });
              // `linksScanned` says how much was examined: fewer links when a config is ruled out.
              const { results, configsSearched } =
                await services.search.search(input);
              const whole = await plain.search(input);
              expect({ results, configsSearched }).toEqual({
                results: whole.results,
                configsSearched: whole.configsSearched,
              });
            }
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('rule out the large configs that hold both words but never one after the other', async () => {
    const services = createServices({
      repository: createMemoryConfigRepository(),
    });
    const repository = services.configs;
    const apart = (n: number, extra: string) => ({
      allLinks: Object.fromEntries(
        Array.from({ length: 500 }, (_, i) => [
          `l${i}`,
          {
            url: `https://h/${n}/${i}`,
            label: `noodle ${i} market ${n}${i === 7 ? extra : ''}`,
            description: `the track ${i} of the night bazaar ${n}`,
          },
        ]),
      ),
    });
    for (let n = 0; n < 12; n++) {
      await repository.put(
        `c${String(n).padStart(2, '0')}`,
        apart(n, n === 9 ? ' noodle track' : ''),
      );
    }
    await services.search.search(SearchInputSchema.parse({ q: 'qzxjvk' }));
    // Configs of 500 links: more distinct terms than a quarter of 8,192 buckets, so a larger class (one
    // chunk of 32 slots: 4 bytes a bucket).
    expect(services.caches.summaries.stats().bytes).toBeGreaterThan(8192 * 4);
    const asked = services.caches.summaries.candidates.bind(
      services.caches.summaries,
    );
    let candidates = -1;
    services.caches.summaries.candidates = (q) => {
      const out = asked(q);
      candidates = out.length;
      return out;
    };
    for (const input of [
      { q: 'NOODLE TRACK' },
      { regex: 'noodle track' },
      { regex: 'noodle track|track of the day' },
    ]) {
      const answer = await services.search.search(
        SearchInputSchema.parse(input),
      );
      expect(answer.results.map((r) => `${r.configName}/${r.id}`)).toEqual([
        'c09/l7',
      ]);
      expect(answer.configsSearched).toBe(12);
      expect(candidates).toBeLessThanOrEqual(2);
    }
  });
});
