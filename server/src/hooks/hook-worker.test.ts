import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startLoopbackServer } from '../../test/loopback-server.js';
import type { LoopbackServer } from '../../test/loopback-server.js';
import { Outbound, OutboundAllowList } from '../outbound/index.js';
import { createMemoryConfigRepository } from '../storage/memory/memory-config-repository.js';
import type { ConfigRepository } from '../storage/config-repository.js';
import { ManualClock } from '../test-clock.js';
import { repositoryHookLog } from './hook-log.js';
import { HookService } from './hook-service.js';
import { SIGNATURE_HEADER, verifySignature } from './hook-signature.js';
import { HookWorker } from './hook-worker.js';
import { PublishService } from '../services/publish-service.js';

const CONFIG = JSON.stringify({ allLinks: {} });
const HOUR = 3_600_000;

interface Received {
  readonly id: number;
  readonly status: number;
  readonly body: string;
  readonly signature: string;
}

let receiver: LoopbackServer;
/** What the receiver answers to the n-th request (from 0). */
let answer: (n: number) => number;
let received: Received[];
let repo: ConfigRepository;
let clock: ManualClock;
let workers: HookWorker[];

beforeEach(async () => {
  received = [];
  answer = () => 204;
  receiver = await startLoopbackServer((request, response) => {
    const status = answer(received.length);
    received.push({
      id: Number(request.headers['linkconfig-event-id']),
      status,
      body: request.body,
      signature: String(request.headers[SIGNATURE_HEADER.toLowerCase()]),
    });
    response.statusCode = status;
    response.end();
  });
  repo = createMemoryConfigRepository();
  clock = new ManualClock(Date.UTC(2026, 0, 1));
  workers = [];
});

afterEach(async () => {
  for (const worker of workers) await worker.stop();
  await repo.close();
  await receiver.close();
});

function worker(options: { retryForMs?: number } = {}): HookWorker {
  const made = new HookWorker({
    store: repo.hooks,
    log: repositoryHookLog(repo),
    outbound: new Outbound({
      allow: new OutboundAllowList([`127.0.0.1:${receiver.port}`]),
      userAgent: 'linkconfig-test/1',
    }),
    clock,
    ...options,
  });
  workers.push(made);
  return made;
}

const service = (): HookService =>
  new HookService({
    store: repo.hooks,
    log: repositoryHookLog(repo),
    now: () => new Date(clock.now()),
  });

async function write(...names: string[]): Promise<number[]> {
  const ids: number[] = [];
  for (const name of names) {
    const result = await repo.put(name, CONFIG);
    if (!result.ok) throw new Error('refused');
    ids.push(result.version);
  }
  return ids;
}

const delivered = (): number[] =>
  received.filter((r) => r.status < 300).map((r) => r.id);

describe('the delivery worker', () => {
  it('delivers every event exactly once by id, in order, to a receiver that fails its first 3 deliveries', async () => {
    answer = (n) => (n < 3 ? 500 : 200);
    await write('site-a/before');
    const hook = await service().create({
      url: `${receiver.origin}/hook`,
      events: ['change'],
      configs: ['site-a/*'],
    });
    const ids = await write('site-a/one', 'site-a/two', 'site-a/three');
    const started = clock.now();
    worker().start();
    await clock.runUntil(() => delivered().length === ids.length);
    // Stopping waits for the attempt under way to be recorded.
    for (const w of workers) await w.stop();
    expect(delivered()).toEqual(ids);
    // The first event was tried 3 times before its delivery, with the same id; nothing else was sent.
    expect(received.map((r) => r.id)).toEqual([ids[0], ids[0], ids[0], ...ids]);
    // 10 s, 20 s, 40 s between the attempts.
    expect(clock.now() - started).toBeGreaterThanOrEqual(70_000);
    const now = Math.floor(clock.now() / 1000);
    for (const r of received) {
      expect(
        verifySignature(
          hook.secret,
          { header: r.signature, body: r.body },
          { nowS: now, toleranceS: 3600 },
        ),
      ).toBe(true);
      expect(
        verifySignature(
          hook.secret,
          { header: r.signature, body: `${r.body} ` },
          { nowS: now, toleranceS: 3600 },
        ),
      ).toBe(false);
      expect(
        verifySignature(
          'whsec_other',
          { header: r.signature, body: r.body },
          { nowS: now, toleranceS: 3600 },
        ),
      ).toBe(false);
    }
    const bodies = received.map((r) => JSON.parse(r.body) as unknown);
    expect(bodies.at(-1)).toMatchObject({
      id: ids[2],
      type: 'change',
      configs: ['site-a/three'],
      data: { name: 'site-a/three', op: 'put' },
    });
    const log = await service().deliveries(hook.id, 50);
    expect(log?.map((d) => [d.eventId, d.attempt, d.error])).toEqual([
      [ids[2], 1, null],
      [ids[1], 1, null],
      [ids[0], 4, null],
      [ids[0], 3, 'HTTP 500'],
      [ids[0], 2, 'HTTP 500'],
      [ids[0], 1, 'HTTP 500'],
    ]);
    expect((await repo.hooks.get(hook.id))?.cursor).toBe(ids[2]);
  });

  it('tells a hook only of the kinds of events and the configs it asked for', async () => {
    const hooks = service();
    await hooks.create({
      url: `${receiver.origin}/a`,
      events: ['change'],
      configs: ['site-a/*', 'docs'],
    });
    await hooks.create({
      url: `${receiver.origin}/publish-only`,
      events: ['publish'],
      configs: ['*'],
    });
    const ids = await write(
      'site-b/x',
      'site-a/x',
      'docs',
      'docs2',
      'site-a/y',
    );
    worker().start();
    await clock.runUntil(() => delivered().length === 3);
    // Nothing further is owed: the next events reach the receiver only after these.
    const [last] = await write('site-a/z');
    await clock.runUntil(() => delivered().length === 4);
    expect(delivered()).toEqual([ids[1], ids[2], ids[4], last]);
    expect(
      received.every((r) =>
        (JSON.parse(r.body) as { configs: string[] }).configs.every(
          (name) => name.startsWith('site-a/') || name === 'docs',
        ),
      ),
    ).toBe(true);
  });

  it('tries an event for 24 hours with growing delays, then records that it gave up and goes on', async () => {
    answer = () => 503;
    const hook = await service().create({
      url: `${receiver.origin}/down`,
      events: ['change'],
      configs: ['*'],
    });
    const ids = await write('one', 'two');
    worker({ retryForMs: 24 * HOUR }).start();
    const started = clock.now();
    await clock.runUntil(() => received.some((r) => r.id === ids[1]));
    for (const w of workers) await w.stop();
    const first = received.filter((r) => r.id === ids[0]).length;
    expect(clock.now() - started).toBeGreaterThanOrEqual(24 * HOUR);
    // Doubling from 10 s to at most an hour: about thirty attempts in a day, not thousands.
    expect(first).toBeGreaterThan(20);
    expect(first).toBeLessThan(40);
    const log = (await service().deliveries(hook.id, 5)) ?? [];
    expect(
      log.some((d) => d.eventId === ids[0] && d.error?.startsWith('gave up')),
    ).toBe(true);
  });

  it('with two workers on one database, each event goes out once: one holds the hook at a time', async () => {
    await service().create({
      url: `${receiver.origin}/shared`,
      events: ['change'],
      configs: ['*'],
    });
    const ids = await write('a', 'b', 'c', 'd');
    worker().start();
    worker().start();
    await clock.runUntil(() => delivered().length === ids.length);
    await write('e');
    await clock.runUntil(() => delivered().length === ids.length + 1);
    expect(received.map((r) => r.id)).toEqual([...ids, ids[3]! + 1]);
  });
});

describe('publish events', () => {
  it('a hook asking for publish receives each publish from the log with its rev, and no unpublish', async () => {
    const hook = await service().create({
      url: `${receiver.origin}/hook`,
      events: ['publish'],
      configs: ['site-a/*'],
    });
    const publishing = new PublishService({
      repository: repo,
      now: () => new Date(clock.now()),
    });
    await write('site-a/menu', 'site-a/menu', 'site-b/menu');
    await publishing.publish('site-a/menu', {}, { requestId: 'req-1' });
    await publishing.publish('site-b/menu', {});
    await publishing.unpublish('site-a/menu');
    await publishing.publish('site-a/menu', { rev: 1 });
    worker().start();
    await clock.runUntil(() => delivered().length === 2);
    await clock.advance(HOUR);
    for (const w of workers) await w.stop();
    const bodies = received.map((r) => JSON.parse(r.body) as unknown);
    expect(bodies).toMatchObject([
      {
        type: 'publish',
        configs: ['site-a/menu'],
        data: { name: 'site-a/menu', rev: 2 },
      },
      {
        type: 'publish',
        configs: ['site-a/menu'],
        data: { name: 'site-a/menu', rev: 1 },
      },
    ]);
    // The log holds every publish and unpublish among the writes, in order.
    const page = await repo.readLog({ after: 0, limit: 100 });
    if (page.reset) throw new Error('reset');
    expect(page.events.map((e) => [e.type, e.name, e.requestId])).toEqual([
      ['publish', 'site-a/menu', 'req-1'],
      ['publish', 'site-b/menu', null],
      ['unpublish', 'site-a/menu', null],
      ['publish', 'site-a/menu', null],
    ]);
    const stored = await repo.hooks.get(hook.id);
    expect(stored?.cursor).toBe(await repo.head());
  });
});
