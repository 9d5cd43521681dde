/**
 * Issue 33 (memory at 10,000 configs): searches hold a scan permit while they work on a version read from
 * storage, so the versions no cache weighs are at most `SCAN_PERMITS` at once, whatever the number of
 * searches; versions found in the cache need none; a waiting search leaves the queue when its client goes
 * away; a full queue is refused (503, `busy`).
 */
import { SearchInputSchema } from '@linkconfig/shared';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors.js';
import { EVENT_LOOP_SLICES } from '../event-loop.js';
import { Permits } from '../permits.js';
import type { ConfigRepository } from '../storage/config-repository.js';
import { createMemoryConfigRepository } from '../storage/memory/memory-config-repository.js';
import { uncheckedRecord } from '../storage/link-health-store.js';
import { LinkHealthService } from './link-health-service.js';
import { SCAN_PERMITS } from './scan-permits.js';
import { SearchService } from './search-service.js';
import { createServices } from './services.js';

const CONFIGS = 12;

/** A config of `links` links, each label holding `word n`. */
function config(n: number, links = 20) {
  const allLinks: Record<string, unknown> = {};
  for (let i = 0; i < links; i++) {
    allLinks[`l${i}`] = {
      url: `https://example.com/${n}/${i}`,
      label: `harbor ${n} pier ${i % 7}`,
    };
  }
  return { allLinks };
}

/**
 * A repository of {@link CONFIGS} configs whose reads take a turn of the event loop each (as a database's
 * would), counting the reads in progress and the most at once.
 */
async function slowRepository() {
  const repository = createMemoryConfigRepository();
  const writer = createServices({ repository });
  for (let n = 0; n < CONFIGS; n++) {
    await writer.configs.put(`c${String(n).padStart(2, '0')}`, config(n));
  }
  const get = repository.get.bind(repository);
  const reads = { now: 0, most: 0, count: 0 };
  repository.get = async (name) => {
    reads.count++;
    reads.most = Math.max(reads.most, ++reads.now);
    try {
      await new Promise((resolve) => setImmediate(resolve));
      return await get(name);
    } finally {
      reads.now--;
    }
  };
  return { repository, reads };
}

/** Services over `repository` with nothing cached yet (another process's view of the same data). */
const fresh = (repository: ConfigRepository, cacheBytes = 64 * 1024) =>
  createServices({ repository, cacheBytes });

const search = (q: string, limit = 1000) =>
  SearchInputSchema.parse({ q, limit: String(limit) });

/** Sixteen distinct searches that each read every config (none stops early). */
const SIXTEEN = Array.from({ length: 16 }, (_, i) =>
  search(`pier ${i % 7}`, 1000 - i),
);

describe('scan permits of searches', () => {
  it('let at most SCAN_PERMITS of 16 concurrent searches read configs at once, with the answers of ungated searches', async () => {
    const { repository, reads } = await slowRepository();
    const services = fresh(repository);
    const answers = await Promise.all(
      SIXTEEN.map((input) => services.search.search(input)),
    );
    expect(reads.count).toBeGreaterThanOrEqual(CONFIGS);
    expect(reads.most).toBeLessThanOrEqual(SCAN_PERMITS);

    // The same searches, one at a time, without a gate: the same answers.
    const plain = new SearchService(fresh(repository).configs);
    for (const [i, input] of SIXTEEN.entries()) {
      const answer = await plain.search(input);
      expect(answers[i]).toEqual(answer);
      expect(answer.results.length).toBeGreaterThan(0);
    }
    // Without a gate the same sixteen read many configs at once (what the gate prevents).
    reads.most = 0;
    const ungated = new SearchService(fresh(repository).configs);
    await Promise.all(SIXTEEN.map((input) => ungated.search(input)));
    expect(reads.most).toBeGreaterThan(SCAN_PERMITS);
  });

  it('let searches over cached versions go on while every permit is held', async () => {
    const { repository, reads } = await slowRepository();
    const services = fresh(repository, 16 * 1024 * 1024);
    const permits = new Permits(1, 4);
    const gated = new SearchService(services.configs, EVENT_LOOP_SLICES, {
      scans: permits,
    });
    // One config read and cached through a plain read; the others stay in storage.
    await services.configs.current('c03');
    const held = await permits.acquire();
    const configFilter = SearchInputSchema.parse({
      q: 'harbor',
      config: '^c03$',
    });
    const cachedOnly = await gated.search(configFilter);
    expect(cachedOnly.results).toHaveLength(20);
    expect(permits.waiting).toBe(0);

    // A search that must read from storage waits until the permit comes back.
    reads.count = 0;
    const waiting = gated.search(search('harbor 7'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(permits.waiting).toBe(1);
    expect(reads.count).toBe(0);
    held?.();
    const answer = await waiting;
    expect(answer.results.map((r) => r.configName)).toEqual(
      Array(20).fill('c07'),
    );
  });

  it('drop a waiting search whose client went away, refuse one beyond the queue, and serve the next', async () => {
    const { repository, reads } = await slowRepository();
    const services = fresh(repository);
    const permits = new Permits(1, 1);
    const gated = new SearchService(services.configs, EVENT_LOOP_SLICES, {
      scans: permits,
    });
    const held = await permits.acquire();
    const gone = new AbortController();
    const abandoned = gated.search(search('harbor 1'), {
      signal: gone.signal,
    });
    const abandonedError = abandoned.catch((error: unknown) => error);
    await new Promise((resolve) => setImmediate(resolve));
    expect(permits.waiting).toBe(1);

    // The queue holds one: the next search is refused at once.
    const refused = await gated
      .search(search('harbor 2'))
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ code: 'busy' });

    // The client goes away: its search leaves the queue, and the place is free for another.
    gone.abort();
    expect(await abandonedError).toMatchObject({ code: 'busy' });
    expect(permits.waiting).toBe(0);
    // A search whose client is gone reads nothing more, even with a permit free.
    const free = new SearchService(
      fresh(repository).configs,
      EVENT_LOOP_SLICES,
      {
        scans: new Permits(1, 1),
      },
    );
    reads.count = 0;
    const stopped = await free
      .search(search('harbor 3'), { signal: AbortSignal.abort() })
      .catch((error: unknown) => error);
    expect(stopped).toMatchObject({ code: 'busy' });
    expect(reads.count).toBe(0);

    const next = gated.search(search('harbor 2'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(permits.waiting).toBe(1);
    held?.();
    expect(await next).toEqual(
      await new SearchService(fresh(repository).configs).search(
        search('harbor 2'),
      ),
    );
  });
  it('never refuse a search it let in: its later turns wait even when the queue is full', async () => {
    const { repository } = await slowRepository();
    const services = fresh(repository);
    const permits = new Permits(1, 1);
    // Every config begins with a pause the test lets go of, so others can fill the queue in between.
    const paused: (() => void)[] = [];
    let clock = 0;
    const gated = new SearchService(
      services.configs,
      {
        sliceMs: 0,
        now: () => clock++,
        pause: () => new Promise<void>((resolve) => paused.push(resolve)),
      },
      { scans: permits },
    );
    let done = false;
    const nextPause = async () => {
      while (paused.length === 0 && !done) {
        await new Promise((resolve) => setImmediate(resolve));
      }
      return paused.shift() ?? (() => undefined);
    };
    const input = search('harbor 1');
    const answer = gated.search(input);
    // The first config: a free permit, taken; the search is let in.
    (await nextPause())();
    const beforeSecond = await nextPause();
    // Between two configs, another request holds the permit and one waits: the queue is full.
    const held = await permits.acquire();
    const waiting = permits.acquire();
    expect(permits.waiting).toBe(1);
    // A new request is refused, the search already let in waits for its turn.
    expect(await permits.acquire()).toBeUndefined();
    beforeSecond();
    await new Promise((resolve) => setImmediate(resolve));
    expect(permits.waiting).toBe(2);
    held?.();
    (await waiting)?.();
    const rest = (async () => {
      while (!done) (await nextPause())();
    })();
    const result = await answer.finally(() => {
      done = true;
    });
    await rest;
    expect(result).toEqual(
      await new SearchService(fresh(repository).configs).search(input),
    );
  });
});

describe('scan permits of the link-health listing', () => {
  it('let at most SCAN_PERMITS of 16 concurrent walks read configs at once, with the answers of ungated walks, and drop a walk whose client went away', async () => {
    const { repository, reads } = await slowRepository();
    // Links of some configs need attention (broken), in every config's catalog order.
    await repository.linkHealth.putAll(
      [3, 7, 11].map((n) => ({
        ...uncheckedRecord(`https://example.com/${n}/2`, 0),
        state: 'broken' as const,
      })),
    );
    const services = fresh(repository);
    const pages = Array.from({ length: 16 }, (_, i) => ({
      limit: 1 + (i % 4),
    }));
    const answers = await Promise.all(
      pages.map((input) => services.linkHealth.across(input)),
    );
    expect(reads.most).toBeLessThanOrEqual(SCAN_PERMITS);

    const other = fresh(repository);
    const ungated = new LinkHealthService({
      store: repository.linkHealth,
      configs: other.configs,
      checker: other.linkHealth.checker,
    });
    for (const [i, input] of pages.entries()) {
      expect(answers[i]).toEqual(await ungated.across(input));
    }
    expect(answers[2]?.links.map((l) => l.config)).toEqual([
      'c03',
      'c07',
      'c11',
    ]);

    const permits = new Permits(1, 1);
    const gated = new LinkHealthService({
      store: repository.linkHealth,
      configs: fresh(repository).configs,
      checker: other.linkHealth.checker,
      scans: permits,
    });
    const held = await permits.acquire();
    const gone = new AbortController();
    const abandoned = gated
      .across({ limit: 3 }, { signal: gone.signal })
      .catch((error: unknown) => error);
    await new Promise((resolve) => setImmediate(resolve));
    expect(permits.waiting).toBe(1);
    gone.abort();
    expect(await abandoned).toMatchObject({ code: 'busy' });
    expect(permits.waiting).toBe(0);
    held?.();
    expect(await gated.across({ limit: 3 })).toEqual(answers[2]);
  });
});
