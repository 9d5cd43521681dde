import { validateLinkConfig } from '@linkconfig/shared';
import { describe, expect, it } from 'vitest';
import {
  configName,
  DEFAULT_SEED,
  generateConfig,
  generateDataset,
  putBody,
} from './dataset.js';
import { mulberry32, ZipfSampler } from './prng.js';
import { NO_MATCH_WORD, TAGS, WORDS } from './vocabulary.js';

const links = (json: string) =>
  Object.values(
    (JSON.parse(json) as { allLinks: Record<string, Record<string, unknown>> })
      .allLinks,
  );

describe('mulberry32', () => {
  it('is deterministic per seed and stays in [0, 1)', () => {
    const a = mulberry32(7);
    const b = mulberry32(7);
    const c = mulberry32(8);
    const seqA = Array.from({ length: 1000 }, a);
    expect(Array.from({ length: 1000 }, b)).toEqual(seqA);
    expect(Array.from({ length: 1000 }, c)).not.toEqual(seqA);
    expect(seqA.every((x) => x >= 0 && x < 1)).toBe(true);
  });
});

describe('ZipfSampler', () => {
  it('draws the first words most often, about 1/r as often by rank', () => {
    const sampler = new ZipfSampler(['a', 'b', 'c', 'd'], 1);
    const rnd = mulberry32(1);
    const counts = new Map<string, number>();
    for (let i = 0; i < 20_000; i++) {
      const w = sampler.sample(rnd);
      counts.set(w, (counts.get(w) ?? 0) + 1);
    }
    const [a = 0, b = 0, c = 0, d = 0] = ['a', 'b', 'c', 'd'].map(
      (w) => counts.get(w) ?? 0,
    );
    expect(a).toBeGreaterThan(b);
    expect(b).toBeGreaterThan(c);
    expect(c).toBeGreaterThan(d);
    expect(a / b).toBeGreaterThan(1.7);
    expect(a / b).toBeLessThan(2.3);
  });
  it('returns distinct words', () => {
    const words = new ZipfSampler(['a', 'b', 'c']).sampleDistinct(
      mulberry32(3),
      3,
    );
    expect(new Set(words).size).toBe(3);
  });
});

describe('generateDataset', () => {
  const dataset = [...generateDataset({ configs: 3, links: 500 })];

  it('names configs in code-point order and is the same on every run', () => {
    expect(dataset.map((c) => c.name)).toEqual([
      'bench-000',
      'bench-001',
      'bench-002',
    ]);
    expect(
      [...generateDataset({ configs: 3, links: 500 })].map((c) => c.json),
    ).toEqual(dataset.map((c) => c.json));
    expect(configName(12)).toBe('bench-012');
  });

  it('makes the smaller dataset a prefix of the larger one', () => {
    const ten = [...generateDataset({ configs: 10, links: 20 })];
    const two = [...generateDataset({ configs: 2, links: 20 })];
    expect(ten.slice(0, 2).map((c) => c.json)).toEqual(two.map((c) => c.json));
  });

  it('gives about 118 KB of JSON per 500-link config', () => {
    for (const { json } of dataset) {
      expect(json.length).toBeGreaterThan(110_000);
      expect(json.length).toBeLessThan(126_000);
    }
  });

  it('produces configs the contract accepts, with 3 macros, 2 patterns and well-formed links', () => {
    for (const { config } of dataset) {
      expect(validateLinkConfig(config).ok).toBe(true);
      expect(Object.keys(config.macros ?? {})).toHaveLength(3);
      expect(Object.keys(config.searchPatterns ?? {})).toHaveLength(2);
      expect(Object.keys(config.allLinks)).toHaveLength(500);
      expect(Object.keys(config.allLinks)[499]).toBe('l499');
      for (const link of Object.values(config.allLinks)) {
        expect(Object.keys(link)).toEqual([
          'url',
          'label',
          'description',
          'tags',
          'createdAt',
        ]);
        expect(link.tags?.length).toBeGreaterThan(0);
        expect(link.tags?.every((t) => TAGS.includes(t))).toBe(true);
        expect(Number.isNaN(Date.parse(String(link.createdAt)))).toBe(false);
      }
    }
  });

  it('uses search patterns that are plain alternations of vocabulary words', () => {
    for (const { config } of dataset) {
      for (const entry of Object.values(config.searchPatterns ?? {})) {
        const pattern = typeof entry === 'string' ? entry : entry.pattern;
        expect(pattern).toMatch(/^[a-z]+\|[a-z]+$/);
        expect(pattern.split('|').every((w) => WORDS.includes(w))).toBe(true);
      }
    }
  });

  it('contains the common word everywhere and the no-match word nowhere', () => {
    const all = dataset.flatMap((c) => links(c.json));
    const text = (l: Record<string, unknown>) =>
      JSON.stringify(l).toLowerCase();
    expect(
      all.filter((l) => text(l).includes(WORDS[0] ?? '?')).length,
    ).toBeGreaterThan(all.length / 4);
    expect(
      dataset.some((c) => c.json.toLowerCase().includes(NO_MATCH_WORD)),
    ).toBe(false);
  });
});

describe('putBody', () => {
  it('is a valid config of at least the asked size, close to it', () => {
    const json = putBody(120 * 1024);
    expect(json.length).toBeGreaterThanOrEqual(120 * 1024);
    expect(json.length).toBeLessThan(140 * 1024);
    expect(validateLinkConfig(JSON.parse(json)).ok).toBe(true);
  });
  it('is not one of the dataset configs', () => {
    const put = JSON.parse(putBody(1000)) as {
      allLinks: Record<string, unknown>;
    };
    const first = generateConfig({ links: 1, seed: DEFAULT_SEED });
    expect(put.allLinks['l0']).not.toEqual(first.allLinks['l0']);
  });
});
