/**
 * Issue 29, item 2: a page of history costs what it answers. Summaries are kept with the revisions when
 * they are written, so a page rebuilds none (counted: calls of `revisions`, which rebuilds texts); a
 * revision kept without one is summarized once, by a bounded page, and kept. A revision or a diff of a
 * large config is worked out in slices (counted, not timed).
 */
import { diffConfigs, summarizeDiff } from '@linkconfig/shared';
import type { SliceOptions } from '@linkconfig/shared';
import { describe, expect, it } from 'vitest';
import { createCaches } from '../cache/cache-policy.js';
import type { ConfigRepository } from '../storage/config-repository.js';
import { createMemoryConfigRepository } from '../storage/memory/memory-config-repository.js';
import type { ConfigVersion } from '../versions/config-version.js';
import { ConfigService } from './config-service.js';
import { HistoryService } from './history-service.js';

/** A config of `n` links; link `k` carries `mark`. */
const config = (n: number, k = -1, mark = 'x') => ({
  allLinks: Object.fromEntries(
    Array.from({ length: n }, (_, i) => [
      `l${i}`,
      { url: `https://example.org/${i}`, label: i === k ? mark : `link ${i}` },
    ]),
  ),
});

/** A repository whose calls of `revisions` (each rebuilds revision texts) are counted. */
function countedRepository(): {
  repository: ConfigRepository;
  rebuilds: () => number;
} {
  const repository = createMemoryConfigRepository();
  let rebuilds = 0;
  const revisions = repository.revisions.bind(repository);
  repository.revisions = (name, range) => {
    rebuilds++;
    return revisions(name, range);
  };
  return { repository, rebuilds: () => rebuilds };
}

function servicesOver(
  repository: ConfigRepository,
  options: { slices?: SliceOptions; fillBytes?: number } = {},
) {
  const configs = new ConfigService({
    repository,
    cache: createCaches<ConfigVersion>().versions,
    now: () => new Date('2026-03-01T10:00:00.000Z'),
    ...(options.slices === undefined ? {} : { slices: options.slices }),
  });
  return {
    configs,
    history: new HistoryService({ repository, configs, ...options }),
  };
}

/** What each revision of `versions` (oldest first; `null` a delete) changed, newest first. */
const expected = (versions: readonly unknown[]) =>
  versions
    .map((v, i) =>
      summarizeDiff(diffConfigs(i === 0 ? null : versions[i - 1], v)),
    )
    .reverse();

describe('history pages from kept summaries (issue 29, item 2)', () => {
  it('lists a page of revisions written through the service without rebuilding any', async () => {
    const { repository, rebuilds } = countedRepository();
    const { configs, history } = servicesOver(repository);
    const versions: unknown[] = [];
    for (let i = 0; i < 30; i++) {
      const next = config(20 + (i % 3), i % 20, `edit ${i}`);
      await configs.put('menu', next);
      versions.push(next);
    }
    await configs.patch('menu', { allLinks: { l1: null, l2: { label: 'p' } } });
    versions.push((await configs.current('menu'))?.stored ?? null);
    await configs.remove('menu');
    versions.push(null);
    await configs.put('menu', config(5));
    versions.push(config(5));
    const page = await history.history('menu', { limit: 1000 });
    expect(rebuilds()).toBe(0);
    expect(page.next).toBeNull();
    expect(page.revisions.map((r) => r.summary)).toEqual(expected(versions));
    expect(page.revisions.slice(0, 3).map((r) => [r.op, r.summary])).toEqual([
      ['put', { added: 5, removed: 0, changed: 0 }],
      ['delete', { added: 0, removed: 21, changed: 0 }],
      ['patch', { added: 0, removed: 1, changed: 1 }],
    ]);
  });

  it('fills the summaries of revisions kept without one once, bounded per page, and keeps them', async () => {
    const { repository, rebuilds } = countedRepository();
    const versions: unknown[] = [];
    // Written beside the service (as before summaries were kept): none kept.
    for (let i = 0; i < 12; i++) {
      const next = config(10 + i, i % 5, `v${i}`);
      await repository.put('old', JSON.stringify(next));
      versions.push(next);
    }
    expect(await repository.summaries('old', { from: 1, to: 12 })).toEqual(
      new Map(),
    );
    // A bound of one byte: each page fills one revision and ends there.
    const small = servicesOver(repository, { fillBytes: 1 }).history;
    const first = await small.history('old', { limit: 5 });
    expect(first.revisions.map((r) => r.rev)).toEqual([12]);
    expect(first.next).toBe(12);
    expect(first.revisions[0]?.summary).toEqual(expected(versions)[0]);
    const second = await small.history('old', { limit: 5, before: 12 });
    expect(second.revisions.map((r) => r.rev)).toEqual([11]);
    // The default bound fills the rest of the page at once.
    const { history } = servicesOver(repository);
    const all = await history.history('old', { limit: 100 });
    expect(all.next).toBeNull();
    expect(all.revisions.map((r) => r.summary)).toEqual(expected(versions));
    // Kept: the next page rebuilds nothing.
    const before = rebuilds();
    expect(await history.history('old', { limit: 100 })).toEqual(all);
    expect(rebuilds()).toBe(before);
    expect((await repository.summaries('old', { from: 1, to: 12 })).size).toBe(
      12,
    );
  });
});

/** Slices that pause at every point where work may pause, counting the pauses. */
function countedSlices(): SliceOptions & { pauses: () => number } {
  let pauses = 0;
  return {
    sliceMs: 0,
    pause: () =>
      new Promise<void>((resolve) => {
        pauses++;
        setImmediate(resolve);
      }),
    pauses: () => pauses,
  };
}

describe('a revision and a diff of a large config are worked out in slices (issue 29, item 2)', () => {
  const LINKS = 5000;

  it('compares two revisions and sanitizes one in slices, to the same answers', async () => {
    const repository = createMemoryConfigRepository();
    const { configs } = servicesOver(repository);
    await configs.put('big', config(LINKS));
    await configs.put('big', config(LINKS - 1, 7, 'changed'));
    const slices = countedSlices();
    const { history } = servicesOver(repository, { slices });
    const diff = await history.diff('big', { from: 1, to: 2 });
    expect(diff).toMatchObject({ removed: [`l${LINKS - 1}`], from: 1, to: 2 });
    expect(diff.changed).toEqual([{ id: 'l7', fields: ['label'] }]);
    // Both configs' links, 64 a step.
    expect(slices.pauses()).toBeGreaterThanOrEqual((2 * LINKS - 1) / 64);
    const before = slices.pauses();
    const revision = await history.revision('big', 1);
    expect(Object.keys(revision.config.allLinks)).toHaveLength(LINKS);
    expect(slices.pauses() - before).toBeGreaterThanOrEqual(LINKS / 256);
  });
});
