import { SearchInputSchema } from '@linkconfig/shared';
import { describe, expect, it } from 'vitest';
import { createMemoryConfigRepository } from '../storage/memory/memory-config-repository.js';
import { createServices } from './services.js';
import { SearchService } from './search-service.js';

/** A config of `links` links whose labels are long, so that few fit in a small cache. */
function config(n: number, links: number, extra = '') {
  const allLinks: Record<string, unknown> = {};
  for (let i = 0; i < links; i++) {
    allLinks[`l${i}`] = {
      url: `https://example.com/${n}/${i}`,
      label: `guide ${n} park ${i} ${'bridge coffee '.repeat(6)}${i === 0 ? extra : ''}`,
    };
  }
  return { allLinks };
}

/** Services over a memory repository that counts the configs read from it. */
function counted(cacheBytes: number) {
  const repository = createMemoryConfigRepository();
  const get = repository.get.bind(repository);
  const reads = { count: 0, names: [] as string[] };
  repository.get = (name) => {
    reads.count++;
    reads.names.push(name);
    return get(name);
  };
  return { services: createServices({ repository, cacheBytes }), reads };
}

const search = (q: string, limit = 100) =>
  SearchInputSchema.parse({ q, limit: String(limit) });

describe('searches across configs with summaries', () => {
  it('read only the configs that may match once every config is summarized, with the same answers', async () => {
    // Versions of ~150 KiB each: the cache keeps a couple, the summaries keep all twenty.
    const { services, reads } = counted(2 * 1024 * 1024);
    for (let n = 0; n < 20; n++) {
      await services.configs.put(
        `c${String(n).padStart(2, '0')}`,
        config(n, 150),
      );
    }
    reads.count = 0;
    const first = await services.search.search(search('qzxjvk'));
    expect(first).toEqual({
      results: [],
      configsSearched: 20,
      linksScanned: 0,
    });
    expect(reads.count).toBeGreaterThanOrEqual(10);

    reads.count = 0;
    const second = await services.search.search(search('qzvvjw'));
    expect(second).toEqual({
      results: [],
      configsSearched: 20,
      linksScanned: 0,
    });
    expect(reads.count).toBeLessThanOrEqual(2);

    // A word only one config holds: that config is read, and counted as the others are.
    await services.configs.put('c07', config(7, 150, 'zebrafish'));
    reads.count = 0;
    const found = await services.search.search(search('ZEBRAFISH'));
    expect(found.results.map((r) => `${r.configName}/${r.id}`)).toEqual([
      'c07/l0',
    ]);
    expect(found.configsSearched).toBe(20);
    expect(reads.count).toBeLessThanOrEqual(3);

    // Stopping at the limit: the configs after the one that filled it are not counted.
    const limited = await services.search.search(search('guide 3 park', 2));
    expect(limited.results.map((r) => r.configName)).toEqual(['c03', 'c03']);
    expect(limited.configsSearched).toBe(4);
  });

  it('keep the configs searches read first in the cache, in place of those only a write or a scan read', async () => {
    // Versions of ~150 KiB each: the cache keeps a few, the last ones written.
    const { services, reads } = counted(2 * 1024 * 1024);
    const full = createServices({
      repository: createMemoryConfigRepository(),
      cacheBytes: 256 * 1024 * 1024,
    });
    for (let n = 0; n < 20; n++) {
      const name = `c${String(n).padStart(2, '0')}`;
      await services.configs.put(name, config(n, 150));
      await full.configs.put(name, config(n, 150));
    }
    // A scan reads every config once: none is asked for more than the others.
    await services.search.search(search('qzxjvk'));
    for (const [i, q] of [
      'guide 12 park',
      'GUIDE 12 PARK 3',
      'guide 12 park 1',
      'guide 12 park 4',
    ].entries()) {
      reads.names = [];
      const input = search(q, 20);
      const answer = await services.search.search(input);
      expect(answer).toEqual(await full.search.search(input));
      expect(answer.results.map((r) => r.configName)).toContain('c12');
      // Read from storage until asked for more than twice as often as what the scan left; kept since.
      // (Another config may be read too: one whose summary lets the text pass by chance.)
      expect(reads.names.filter((n) => n === 'c12')).toHaveLength(
        i < 2 ? 1 : 0,
      );
    }
    // Another scan does not flush it.
    await services.search.search(search('qzvvjw'));
    reads.names = [];
    await services.search.search(search('guide 12 park 2'));
    expect(reads.names).not.toContain('c12');
  });

  it('never trust a summary of another version: a rewritten config is read again', async () => {
    const { services } = counted(2 * 1024 * 1024);
    for (let n = 0; n < 5; n++)
      await services.configs.put(`c${n}`, config(n, 20));
    expect(
      (await services.search.search(search('lighthouse'))).results,
    ).toEqual([]);
    await services.configs.put('c3', config(3, 20, 'lighthouse'));
    const after = await services.search.search(search('lighthouse'));
    expect(after.results.map((r) => `${r.configName}/${r.id}`)).toEqual([
      'c3/l0',
    ]);
    await services.configs.remove('c3');
    expect(await services.search.search(search('lighthouse'))).toEqual({
      results: [],
      configsSearched: 4,
      linksScanned: 0,
    });
  });
});

describe('searches across configs with summaries, against a search without them', () => {
  /** A config of three small links, each holding `word`. */
  const small = (word: string) => ({
    allLinks: Object.fromEntries(
      [0, 1, 2].map((i) => [
        `l${i}`,
        { url: `https://h/${i}`, label: `${word} ${i}` },
      ]),
    ),
  });

  it('find every match in catalog order whatever the order the summaries were made in', async () => {
    const { services } = counted(2 * 1024 * 1024);
    const plain = new SearchService(services.configs);
    for (let n = 0; n < 10; n++)
      await services.configs.put(`c${n}`, small(`w${n}`));
    await services.search.search(search('qzxjvk'));
    // A freed slot taken by a later name, names before and between those summarized first.
    await services.configs.remove('c2');
    await services.configs.put('c9', small('harbor'));
    await services.configs.put('c11', small('harbor'));
    await services.configs.put('a0', small('harbor'));
    await services.configs.put('c5', small('harbor w5'));
    await services.search.search(search('qzxjvq'));
    for (const q of ['harbor', 'w5', 'w7', 'w2', 'qzz', 'harbor 1']) {
      for (const limit of [1, 2, 4, 100]) {
        const input = search(q, limit);
        expect(await services.search.search(input)).toEqual(
          await plain.search(input),
        );
      }
    }
    const all = await services.search.search(search('harbor'));
    expect([...new Set(all.results.map((r) => r.configName))]).toEqual([
      'a0',
      'c11',
      'c5',
      'c9',
    ]);
  });

  it('still search the configs the summaries have no room for', async () => {
    // 160 KiB (8 KiB of summaries): room for one chunk of 32 summaries of the smallest class (1,024
    // buckets, 4 KiB, and 32 slots of 128 bytes); the last 8 configs have none.
    const { services, reads } = counted(160 * 1024);
    const plain = new SearchService(services.configs);
    for (let n = 0; n < 40; n++) {
      const word = n === 38 ? 'lighthouse' : `w${n}`;
      await services.configs.put(`c${String(n).padStart(2, '0')}`, small(word));
    }
    await services.search.search(search('qzxjvk'));
    expect(services.caches.summaries.stats()).toMatchObject({
      entries: 32,
      evictions: 8,
    });
    reads.count = 0;
    const found = await services.search.search(search('lighthouse'));
    expect(found.results.map((r) => `${r.configName}/${r.id}`)).toEqual([
      'c38/l0',
      'c38/l1',
      'c38/l2',
    ]);
    expect(found).toEqual(await plain.search(search('lighthouse')));
    for (const q of ['w3', 'w35', 'w39', 'qzz']) {
      expect(await services.search.search(search(q))).toEqual(
        await plain.search(search(q)),
      );
    }
  });
});
