/**
 * Link health events through the one log to webhooks (issue 31, "Events"): a URL's change of state is
 * appended once per config that holds it, and a hook asking for `link-broken`/`link-recovered` receives
 * exactly one event per change of state, never a repeat, about the configs within its patterns only.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { repositoryHookLog } from '../src/hooks/hook-log.js';
import { HookService } from '../src/hooks/hook-service.js';
import { HookWorker } from '../src/hooks/hook-worker.js';
import { appendLinkEvents } from '../src/link-health/link-events.js';
import { Outbound, OutboundAllowList } from '../src/outbound/index.js';
import type { ConfigRepository } from '../src/storage/config-repository.js';
import { createMemoryConfigRepository } from '../src/storage/memory/memory-config-repository.js';
import { ManualClock } from '../src/test-clock.js';
import { checkerHarness } from './link-check-harness.js';
import type { CheckerHarness } from './link-check-harness.js';
import { startLoopbackServer } from './loopback-server.js';
import type { LoopbackServer } from './loopback-server.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let site: LoopbackServer;
let receiver: LoopbackServer;
let goneStatus: number;
let bodies: Record<string, unknown>[];
let repo: ConfigRepository;
let h: CheckerHarness;

beforeEach(async () => {
  goneStatus = 404;
  bodies = [];
  site = await startLoopbackServer((request, response) => {
    if (request.path === '/robots.txt') response.writeHead(404).end();
    else response.writeHead(goneStatus).end();
  });
  receiver = await startLoopbackServer((request, response) => {
    bodies.push(JSON.parse(request.body) as Record<string, unknown>);
    response.writeHead(204).end();
  });
  repo = createMemoryConfigRepository();
  h = checkerHarness([site], {
    repository: repo,
    clock: new ManualClock(Date.UTC(2026, 0, 1)),
    onEvent: appendLinkEvents(repo),
  });
});

afterEach(async () => {
  await h.close();
  await site.close();
  await receiver.close();
});

async function deliverAll(clock: ManualClock, count: number): Promise<void> {
  const outbound = new Outbound({
    allow: new OutboundAllowList([`127.0.0.1:${receiver.port}`]),
    userAgent: 'linkconfig-test/1',
  });
  const worker = new HookWorker({
    store: repo.hooks,
    log: repositoryHookLog(repo),
    outbound,
    clock,
  });
  worker.start();
  await clock.runUntil(() => bodies.length >= count);
  // A little longer: nothing more may come.
  await clock.advance(HOUR);
  await worker.stop();
  await outbound.close();
}

describe('link health events to webhooks', () => {
  it('tells a hook once per change of state: broken, still broken (nothing), recovered, broken again', async () => {
    const url = `${site.origin}/gone`;
    const hooks = new HookService({
      store: repo.hooks,
      log: repositoryHookLog(repo),
      now: () => new Date(h.clock.now()),
    });
    await hooks.create({
      url: `${receiver.origin}/hook`,
      events: ['link-broken', 'link-recovered'],
      configs: ['site/*'],
    });
    await h.putLinks('site/a', [url]);
    await h.putLinks('other', [url]);

    // Two failures a day apart: confirmed broken.
    await h.run([url]);
    await h.clock.advance(DAY + HOUR);
    await h.run([url]);
    expect((await h.record(url))?.state).toBe('broken');
    // Still broken a week later, twice: no new event.
    await h.clock.advance(7 * DAY);
    await h.run([url]);
    await h.clock.advance(7 * DAY);
    await h.run([url]);
    // It works again.
    goneStatus = 200;
    await h.clock.advance(HOUR);
    await h.run([url]);
    await h.clock.advance(HOUR);
    await h.run([url]);
    // Broken again (confirmed a day later).
    goneStatus = 500;
    await h.clock.advance(HOUR);
    await h.run([url]);
    await h.clock.advance(DAY + HOUR);
    await h.run([url]);
    expect((await h.record(url))?.state).toBe('broken');

    // The log holds one event per config that holds the URL, per change of state.
    const page = await repo.readLog({ after: 0, limit: 100 });
    if (page.reset) throw new Error('reset');
    expect(page.events.map((e) => e.type)).toEqual([
      'link-broken',
      'link-broken',
      'link-recovered',
      'link-recovered',
      'link-broken',
      'link-broken',
    ]);
    for (let i = 0; i < 6; i += 2) {
      expect(
        page.events
          .slice(i, i + 2)
          .map((e) => e.name)
          .sort(),
      ).toEqual(['other', 'site/a']);
    }

    await deliverAll(h.clock, 3);
    expect(
      bodies.map((b) => [
        b['type'],
        b['configs'],
        (b['data'] as { url: string }).url,
      ]),
    ).toEqual([
      ['link-broken', ['site/a'], url],
      ['link-recovered', ['site/a'], url],
      ['link-broken', ['site/a'], url],
    ]);
    expect(bodies[0]?.['data']).toMatchObject({
      name: 'site/a',
      state: 'broken',
      status: 404,
    });
    expect(bodies[2]?.['data']).toMatchObject({ state: 'broken', status: 500 });
    // Each delivery is a distinct log id.
    expect(new Set(bodies.map((b) => b['id'])).size).toBe(3);
  });

  it('a hook that asked only for changes hears of no link event, and its cursor passes over them', async () => {
    const url = `${site.origin}/gone`;
    const hooks = new HookService({
      store: repo.hooks,
      log: repositoryHookLog(repo),
      now: () => new Date(h.clock.now()),
    });
    const hook = await hooks.create({
      url: `${receiver.origin}/hook`,
      events: ['change'],
      configs: ['*'],
    });
    await h.putLinks('site', [url]);
    await h.run([url]);
    await h.clock.advance(DAY + HOUR);
    await h.run([url]);
    await deliverAll(h.clock, 1);
    expect(bodies.map((b) => b['type'])).toEqual(['change']);
    const stored = await repo.hooks.get(hook.id);
    expect(stored?.cursor).toBe(await repo.head());
  });
});
