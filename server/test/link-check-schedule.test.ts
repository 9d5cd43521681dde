/**
 * The checker's schedule (LINK_CHECK=on), driven by a manual clock: a new URL is checked within about a
 * minute of its write, every URL again LINK_CHECK_EVERY after its last check, a URL no config holds is
 * forgotten, and a check on demand wakes the schedule at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SPACING_MARGIN_MS, POLITE } from '../src/link-health/host-pacer.js';
import { realTick } from '../src/test-clock.js';
import { checkerHarness } from './link-check-harness.js';
import { startLoopbackServer } from './loopback-server.js';
import type { LoopbackServer } from './loopback-server.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

let site: LoopbackServer;
beforeAll(async () => {
  site = await startLoopbackServer((_request, response) => {
    response.writeHead(200).end();
  });
});
afterAll(() => site.close());

const heads = (path: string): number =>
  site.requests.filter((r) => r.method === 'HEAD' && r.path === path).length;

describe('link checker schedule', () => {
  it('checks new URLs within a minute, all URLs again after LINK_CHECK_EVERY, and forgets URLs no config holds', async () => {
    const h = checkerHarness([site], {
      timing: { everyMs: 7 * DAY, confirmMs: DAY },
    });
    const a = `${site.origin}/a`;
    const b = `${site.origin}/b`;
    await h.putLinks('site', [a]);
    h.checker.start();
    const written = h.clock.now();
    const idle = () => h.checker.inFlight === 0;
    await h.clock.runUntil(() => heads('/a') === 1, { canAdvance: idle });
    expect(h.clock.now() - written).toBeLessThan(MINUTE);

    // A link added later: checked within about a minute of its write.
    await h.clock.advance(DAY);
    const added = h.clock.now();
    await h.putLinks('site', [a, b]);
    await h.clock.runUntil(() => heads('/b') === 1, { canAdvance: idle });
    expect(h.clock.now() - added).toBeLessThanOrEqual(MINUTE + 2000);
    expect(heads('/a')).toBe(1);

    // A week after its check, /a is checked again without being asked.
    const firstCheck = Date.parse((await h.record(a))?.checkedAt ?? '');
    const checks = () => h.checker.stats.checks.get('ok') ?? 0;
    await h.clock.runUntil(() => checks() === 3, { canAdvance: idle });
    expect(heads('/a')).toBe(2);
    const second = Date.parse((await h.record(a))?.checkedAt ?? '');
    expect(second - firstCheck).toBeGreaterThanOrEqual(7 * DAY);
    expect(second - firstCheck).toBeLessThan(7 * DAY + 2 * MINUTE);

    // /a leaves every config: it is forgotten at the next look.
    await h.putLinks('site', [b]);
    await h.clock.advance(MINUTE);
    for (let turn = 0; turn < 1000; turn++) {
      if ((await h.repository.linkHealth.urls()).length === 1) break;
      await realTick();
    }
    expect(await h.repository.linkHealth.urls()).toEqual([b]);
    await h.close();
  });

  it('wakes at once for a check on demand', async () => {
    const h = checkerHarness([site], {
      timing: { everyMs: 7 * DAY, confirmMs: DAY },
    });
    const c = `${site.origin}/c`;
    await h.putLinks('demand', [c]);
    h.checker.start();
    await h.clock.runUntil(() => heads('/c') === 1, {
      canAdvance: () => h.checker.inFlight === 0,
    });
    const before = h.clock.now();
    expect(await h.checker.checkNow([c])).toBe(1);
    // No time passes for the schedule's tick: only the politeness gap to the same host.
    await h.clock.runUntil(() => heads('/c') === 2, {
      canAdvance: () => h.checker.inFlight === 0,
    });
    expect(h.clock.now() - before).toBeLessThanOrEqual(
      POLITE.spacingMs + SPACING_MARGIN_MS,
    );
    await h.close();
  });
});
