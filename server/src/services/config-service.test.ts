import { describe, expect, it } from 'vitest';
import { SearchInputSchema } from '@linkconfig/shared';
import { KEEP_PARSED_MIN_CHARS } from '../event-loop.js';
import { ReceivedJson } from '../received-json.js';
import { createMemoryConfigRepository } from '../storage/memory/memory-config-repository.js';
import { createServices } from './services.js';
import { SearchService } from './search-service.js';

/** A config whose JSON text is at least `chars` long, received as the HTTP layer hands it over. */
function received(chars: number): ReceivedJson {
  const config = {
    allLinks: { a: { url: 'https://example.com/a', description: '' } },
  };
  const padding = Math.max(0, chars - JSON.stringify(config).length);
  config.allLinks.a.description = 'x'.repeat(padding);
  const text = JSON.stringify(config);
  return new ReceivedJson(JSON.parse(text), text);
}

async function storedAfterPut(body: ReceivedJson): Promise<unknown> {
  const services = createServices({
    repository: createMemoryConfigRepository(),
    cacheBytes: 64 * 1024 * 1024,
  });
  await services.configs.put('c', body);
  return services.caches.versions.peek('c')?.stored;
}

describe('ConfigService: the value a PUT parsed', () => {
  it('is kept by the version of a large config, so its first read does not parse it again', async () => {
    const body = received(KEEP_PARSED_MIN_CHARS);
    expect(body.text.length).toBeGreaterThanOrEqual(KEEP_PARSED_MIN_CHARS);
    expect(await storedAfterPut(body)).toBe(body.value);
  });

  it('is not kept for a smaller config, which is parsed again on its first read', async () => {
    const body = received(120 * 1024);
    const stored = await storedAfterPut(body);
    expect(stored).not.toBe(body.value);
    expect(stored).toEqual(body.value);
  });
});

describe('A search over more configs than the versions cache holds', () => {
  it('keeps the versions already cached and answers as it would with room for all', async () => {
    const link = (i: number) => ({
      url: `https://example.com/${i}`,
      label: `link ${i} ${'w'.repeat(2000)}`,
    });
    const config = (i: number) => ({
      allLinks: Object.fromEntries(
        Array.from({ length: 20 }, (_, j) => [`l${j}`, link(i * 100 + j)]),
      ),
    });
    const make = (cacheBytes: number) =>
      createServices({
        repository: createMemoryConfigRepository(),
        cacheBytes,
      });
    const small = make(2 * 1024 * 1024);
    const large = make(256 * 1024 * 1024);
    for (const services of [small, large]) {
      for (let i = 0; i < 60; i++)
        await services.configs.put(`c${i}`, config(i));
    }
    // Configs read one by one fill the small cache as single reads do; a first search builds the search
    // index of those it holds (they grow and evict others, as any use of a cached version may).
    for (let i = 0; i < 60; i++) await small.configs.current(`c${i}`);
    await small.search.search(SearchInputSchema.parse({ q: 'first' }));
    const held = () =>
      Array.from({ length: 60 }, (_, i) => `c${i}`).filter(
        (name) => small.caches.versions.peek(name) !== undefined,
      );
    const before = held();
    expect(before.length).toBeGreaterThan(0);
    expect(before.length).toBeLessThan(60);
    const evictions = small.caches.versions.stats().evictions;
    const none = SearchInputSchema.parse({ q: 'nothing like this' });
    const answer = await small.search.search(none);
    expect(held()).toEqual(before);
    expect(small.caches.versions.stats().evictions).toBe(evictions);
    expect(answer).toEqual(await large.search.search(none));
    expect(answer.configsSearched).toBe(60);
    const hit = SearchInputSchema.parse({ q: 'link 5903' });
    const found = await small.search.search(hit);
    expect(found.results.map((r) => r.id)).toEqual(['l3']);
    expect(found).toEqual(await large.search.search(hit));
  });
});

describe('A search over many configs', () => {
  it('pauses between two configs once a slice has run, and answers the same', async () => {
    const repository = createMemoryConfigRepository();
    const services = createServices({
      repository,
      cacheBytes: 64 * 1024 * 1024,
    });
    for (let i = 0; i < 5; i++) {
      await services.configs.put(`c${i}`, {
        allLinks: { a: { url: `https://example.com/${i}`, label: `n${i}` } },
      });
    }
    let clock = 0;
    let pauses = 0;
    const sliced = new SearchService(services.configs, {
      sliceMs: 10,
      // Every reading of the clock is a slice's worth later: a pause before each config but the first.
      now: () => (clock += 10),
      pause: () => {
        pauses++;
        return Promise.resolve();
      },
    });
    const input = SearchInputSchema.parse({ q: 'n' });
    const answer = await sliced.search(input);
    expect(pauses).toBeGreaterThanOrEqual(4);
    expect(answer).toEqual(await services.search.search(input));
    expect(answer.results).toHaveLength(5);
  });
});

describe('A read of one config', () => {
  it('reads storage once per version, answers the cached view after, and sees a write by another server', async () => {
    const repository = createMemoryConfigRepository();
    let gets = 0;
    const counted = {
      ...repository,
      get: (name: string) => {
        gets++;
        return repository.get(name);
      },
    };
    const reader = createServices({ repository: counted });
    // Another server process on the same storage: its writes reach the reader only through storage.
    const writer = createServices({ repository });
    await writer.configs.put('c', received(100));
    const first = await reader.configs.current('c');
    expect(gets).toBe(1);
    expect(first?.version).toBe(1);
    expect(reader.caches.versions.peek('c')).toBe(first);
    expect(await reader.configs.current('c')).toBe(first);
    expect(gets).toBe(1);
    await writer.configs.put('c', received(200));
    const second = await reader.configs.current('c');
    expect(gets).toBe(2);
    expect(second?.version).toBe(2);
    expect(second?.entry.config).toEqual(received(200).value);
    expect(await reader.configs.current('c')).toBe(second);
    expect(gets).toBe(2);
    await writer.configs.remove('c');
    expect(await reader.configs.current('c')).toBeNull();
    expect(reader.caches.versions.peek('c')).toBeUndefined();
  });
});
