/**
 * Several instances on one PostgreSQL database (issue 31): each runs its own checker, and together they
 * check each URL once per round (leases in the database), whoever starts first, round after round.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/test-clock.js';
import { checkerHarness } from './link-check-harness.js';
import type { CheckerHarness } from './link-check-harness.js';
import { startLoopbackServer } from './loopback-server.js';
import type { LoopbackServer } from './loopback-server.js';
import { postgresDatabases } from './test-databases.js';
import type { TestDatabase } from './test-databases.js';

const DAY = 86_400_000;

let sites: LoopbackServer[] = [];
let db: TestDatabase;

beforeAll(async () => {
  db = postgresDatabases();
  sites = await Promise.all(
    [0, 1, 2].map(() =>
      startLoopbackServer((_request, response) => {
        setImmediate(() => response.writeHead(200).end());
      }),
    ),
  );
});
afterAll(async () => {
  await Promise.all(sites.map((s) => s.close()));
  await db.cleanup();
});

/** HEAD requests per path, over every site. */
function headsPerUrl(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const site of sites) {
    for (const r of site.requests) {
      if (r.method !== 'HEAD') continue;
      const url = `${site.origin}${r.path}`;
      counts.set(url, (counts.get(url) ?? 0) + 1);
    }
  }
  return counts;
}

describe('link checker with several instances on PostgreSQL', () => {
  it('checks each URL once per round', async () => {
    const clock = new ManualClock();
    const first = await db.create();
    const instances: CheckerHarness[] = [];
    for (let i = 0; i < 3; i++) {
      const repository = i === 0 ? first : await db.connect(first);
      instances.push(checkerHarness(sites, { repository, clock }));
    }
    const urls = sites.flatMap((site) =>
      Array.from({ length: 20 }, (_, i) => `${site.origin}/p/${i}`),
    );
    await instances[0]?.putLinks('many', urls);

    const checked = () =>
      instances.reduce(
        (n, h) => n + (h.checker.stats.checks.get('ok') ?? 0),
        0,
      );
    for (let round = 1; round <= 2; round++) {
      // Each instance does what its schedule does at a tick, tick after tick, until the round is done: a
      // host another instance holds is left to that one.
      for (let tick = 0; checked() < urls.length * round && tick < 20; tick++) {
        let done = 0;
        const runs = instances.map((h) =>
          h.checker.runDue().finally(() => done++),
        );
        await clock.runUntil(() => done === instances.length, {
          canAdvance: () => instances.every((h) => h.checker.inFlight === 0),
        });
        await Promise.all(runs);
      }
      const heads = headsPerUrl();
      expect([...heads.keys()].sort()).toEqual([...urls].sort());
      expect(new Set(heads.values())).toEqual(new Set([round]));
      const records = await first.linkHealth.get(urls);
      expect(records.every((r) => r.state === 'ok')).toBe(true);
      await clock.advance(7 * DAY);
    }
    const stats = instances.map((h) => h.checker.stats.checks.get('ok') ?? 0);
    expect(stats.reduce((a, b) => a + b, 0)).toBe(urls.length * 2);
    for (const h of instances) await h.close();
  });
});
