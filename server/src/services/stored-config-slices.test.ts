/**
 * Issue 29, item 3: work on a large stored config runs in ~10 ms slices: a merge patch applied, checked
 * and written out; the search index of a new version; the scans of search patterns. Counted, not timed:
 * the slices pause at every point where the work may pause, through `setImmediate`, and a second task on
 * the event loop counts the turns it gets meanwhile.
 */
import { SearchInputSchema, applyMergePatch } from '@linkconfig/shared';
import type { SliceOptions } from '@linkconfig/shared';
import { describe, expect, it } from 'vitest';
import { createCaches } from '../cache/cache-policy.js';
import { TEXT_PATCH_MAX_CHARS } from '../event-loop.js';
import { createMemoryConfigRepository } from '../storage/memory/memory-config-repository.js';
import type { ConfigVersion } from '../versions/config-version.js';
import { ConfigService } from './config-service.js';
import { ExpressionService } from './expression-service.js';
import { SearchService } from './search-service.js';

/** Enough links for a text of more than `TEXT_PATCH_MAX_CHARS` (a smaller PATCH is worked out on the text). */
const LINKS = 8000;

/** A config of {@link LINKS} links, with search patterns that scan them all. */
function largeConfig(): Record<string, unknown> {
  const allLinks: Record<string, unknown> = {};
  for (let i = 0; i < LINKS; i++) {
    allLinks[`l${i}`] = {
      url: `https://example.org/${i}`,
      label: `link ${i}`,
      tags: [`t${i % 10}`],
    };
  }
  return { allLinks, searchPatterns: { none: 'zzz-nowhere' } };
}

/**
 * Slices that pause at every point where work may pause, through the event loop, and a second task that
 * counts the turns the event loop gives it meanwhile.
 */
function countedSlices(): SliceOptions & {
  pauses: () => number;
  turns: () => number;
  stop: () => void;
} {
  let pauses = 0;
  let turns = 0;
  let running = true;
  const other = (): void => {
    turns++;
    if (running) setImmediate(other);
  };
  setImmediate(other);
  return {
    sliceMs: 0,
    pause: () =>
      new Promise<void>((resolve) => {
        pauses++;
        setImmediate(resolve);
      }),
    pauses: () => pauses,
    turns: () => turns,
    stop: () => {
      running = false;
    },
  };
}

/** Services over one repository, whose work on stored configs runs in `slices`. */
async function servicesIn(slices: SliceOptions) {
  const caches = createCaches<ConfigVersion>();
  const configs = new ConfigService({
    repository: createMemoryConfigRepository(),
    cache: caches.versions,
    now: () => new Date('2026-03-01T10:00:00.000Z'),
    slices,
  });
  await configs.put('big', largeConfig());
  return {
    configs,
    search: new SearchService(configs, slices),
    expressions: new ExpressionService({
      configs,
      now: () => Date.parse('2026-03-01T10:00:00.000Z'),
      merges: caches.merges,
      slices,
    }),
  };
}

describe('work on a large stored config runs in slices (issue 29, item 3)', () => {
  it('applies, checks and writes out a merge patch in slices, to the same result', async () => {
    const slices = countedSlices();
    const { configs } = await servicesIn(slices);
    const patch = { allLinks: { l7: { label: 'changed' }, l8: null } };
    expect(JSON.stringify(largeConfig()).length).toBeGreaterThan(
      TEXT_PATCH_MAX_CHARS,
    );
    await configs.patch('big', patch);
    slices.stop();
    // 8,000 links copied, checked (entries and nodes) and written out: dozens of pauses.
    expect(slices.pauses()).toBeGreaterThanOrEqual(LINKS / 64);
    expect(slices.turns()).toBeGreaterThanOrEqual(slices.pauses() / 2);
    const stored = await configs.current('big');
    expect(stored?.stored).toEqual(applyMergePatch(largeConfig(), patch));
  });

  it('builds the search index of a new version in slices on its first search', async () => {
    const slices = countedSlices();
    const { configs, search } = await servicesIn(slices);
    await configs.patch('big', { allLinks: { l1: { label: 'needle' } } });
    const before = slices.pauses();
    const answer = await search.search(
      SearchInputSchema.parse({ q: 'needle' }),
    );
    slices.stop();
    expect(answer.results.map((r) => r.id)).toEqual(['l1']);
    // The sanitized entry and the index, 256 links a step each.
    expect(slices.pauses() - before).toBeGreaterThanOrEqual((2 * LINKS) / 256);
    expect(slices.turns()).toBeGreaterThan(0);
  });

  it('scans a search pattern over the config in slices', async () => {
    const slices = countedSlices();
    const { expressions } = await servicesIn(slices);
    // Prepared first (in slices of its own), then the scan alone is counted.
    await expressions.query({ expression: 'l1', configName: 'big' });
    const before = slices.pauses();
    const answer = await expressions.query({
      expression: '/none/ | l2',
      configName: 'big',
    });
    slices.stop();
    expect(answer.value.results.map((r) => r.id)).toEqual(['l2']);
    expect(slices.pauses() - before).toBeGreaterThanOrEqual(LINKS / 64 - 1);
  });
});
