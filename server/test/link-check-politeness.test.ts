/**
 * Politeness measured from the test server's side (issue 31): 1,000 links on one host are checked with
 * never more than 2 requests open at once and at least a second (of the checker's clock) between two
 * requests; robots.txt is asked once. The clock is a manual one: the run takes no real seconds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POLITE, SPACING_MARGIN_MS } from '../src/link-health/host-pacer.js';
import { checkerHarness } from './link-check-harness.js';
import type { CheckerHarness } from './link-check-harness.js';
import { startLoopbackServer } from './loopback-server.js';
import type { LoopbackServer } from './loopback-server.js';

const LINKS = 1000;

let site: LoopbackServer;
let harness: CheckerHarness | undefined;
/** For each request as it arrived: the checker's time and how many requests were open with it. */
const arrivals: { at: number; open: number; path: string }[] = [];
let open = 0;

beforeAll(async () => {
  site = await startLoopbackServer((request, response) => {
    open++;
    arrivals.push({
      at: harness?.clock.now() ?? 0,
      open,
      path: request.path,
    });
    response.once('close', () => open--);
    // Answer a little later (a real turn), so requests can overlap if the checker lets them.
    setImmediate(() => response.writeHead(200).end());
  });
});
afterAll(() => site.close());

describe('link checker politeness', () => {
  it(`checks ${LINKS} links on one host 2 at a time at most, a second apart at least`, async () => {
    const h = checkerHarness([site]);
    harness = h;
    const urls = Array.from(
      { length: LINKS },
      (_, i) => `${site.origin}/page/${i}`,
    );
    await h.putLinks('many', urls);
    const started = h.clock.now();
    const checked = await h.run(urls);
    expect(checked).toHaveLength(LINKS);
    expect(arrivals.filter((a) => a.path === '/robots.txt')).toHaveLength(1);
    expect(arrivals).toHaveLength(LINKS + 1);
    const maxOpen = Math.max(...arrivals.map((a) => a.open));
    const gaps = arrivals.slice(1).map((a, i) => a.at - (arrivals[i]?.at ?? 0));
    const minGap = Math.min(...gaps);
    expect(maxOpen).toBeLessThanOrEqual(2);
    expect(minGap).toBeGreaterThanOrEqual(1000);
    // And no slower than the limit requires: one request a second and the pacer's margin.
    const elapsed = h.clock.now() - started;
    expect(elapsed).toBeLessThan(
      (LINKS + 1) * (POLITE.spacingMs + SPACING_MARGIN_MS) + 5000,
    );
    console.info(
      `politeness: ${arrivals.length} requests to one host over ${elapsed / 1000} s of the checker's clock; at most ${maxOpen} open at once; smallest gap ${minGap} ms`,
    );
    await h.close();
  });
});
