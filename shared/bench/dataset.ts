/**
 * Seeded synthetic configs for the engine benchmark: links with tags from a skewed vocabulary, ISO
 * `createdAt` dates over the last year, a few macros and search patterns, and one rare tag on exactly
 * three links.
 */
import { mulberry32 } from './prng.js';

/** A seeded PRNG (mulberry32) returning numbers in [0, 1). */
export const createRandom = mulberry32;

/** The clock of the benchmark (fixed, so `:time:` selects the same links in every run). */
export const BENCH_NOW = Date.UTC(2025, 0, 1);

const DAY = 86_400_000;
const TAGS = Array.from({ length: 40 }, (_, i) => `t${i}`);
const WORDS = [
  'alpha',
  'beta',
  'gamma',
  'delta',
  'news',
  'docs',
  'blog',
  'shop',
  'wiki',
  'video',
];

/** Picks a tag index with a skewed (roughly Zipf-like) distribution. */
function skewedTag(random: () => number): string {
  return TAGS[Math.floor(TAGS.length * random() ** 2)] ?? 't0';
}

/** One generated link. */
function makeLink(random: () => number, i: number): Record<string, unknown> {
  const tagCount = 1 + Math.floor(random() * 4);
  const tags = Array.from({ length: tagCount }, () => skewedTag(random));
  const word = WORDS[Math.floor(random() * WORDS.length)] ?? 'alpha';
  return {
    url: `https://${word}.example/${i}`,
    label: `${word} link ${i}`,
    tags,
    description: random() < 0.3 ? `about ${word} number ${i}` : undefined,
    createdAt: new Date(
      BENCH_NOW - Math.floor(random() * 365 * DAY),
    ).toISOString(),
  };
}

/** A raw config with `size` links (seeded: the same size always gives the same config). */
export function generateConfig(
  size: number,
  seed = 42,
): Record<string, unknown> {
  const random = createRandom(seed + size);
  const allLinks: Record<string, unknown> = {};
  const rare = new Set([Math.floor(size / 7), Math.floor(size / 2), size - 3]);
  for (let i = 0; i < size; i++) {
    const link = makeLink(random, i);
    if (rare.has(i)) (link['tags'] as string[]).push('rare');
    allLinks[`l${i}`] = link;
  }
  return {
    allLinks,
    macros: {
      popular: { linkItems: '.t0 | .t1' },
      combo: { linkItems: '@popular - .t2' },
      page: { linkItems: '*sort* *skip:5* *limit:10*' },
    },
    searchPatterns: {
      news: {
        pattern: 'news link 1\\d\\d$',
        options: { fields: 'l', sort: 'newest', limit: 10 },
      },
      docs: 'docs',
      recent: { pattern: 'shop', options: { age: '30d', sort: 'alpha' } },
    },
  };
}
