import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createConfigDb } from '../indexeddb/config-db.js';
import { createOutbox } from '../indexeddb/outbox.js';
import { createScriptedRemote, remoteFailure } from '../testing/test-remote.js';
import { createDelivery } from './delivery.js';
import { SyncQueue } from './sync-queue.js';

/** Lets fake-indexeddb finish its work: it runs on real macrotasks, which fake timers do not advance. */
async function settle(): Promise<void> {
  for (let i = 0; i < 30; i++)
    await new Promise<void>((resolve) => setImmediate(resolve));
}

/** Advances the fake clock, then lets the database work that the timers started finish. */
async function advance(ms: number): Promise<void> {
  await vi.advanceTimersByTimeAsync(ms);
  await settle();
}

describe('SyncQueue timing (H12, H13)', () => {
  // Only timers and the clock are faked: fake-indexeddb needs the real setImmediate.
  beforeEach(() =>
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] }),
  );
  afterEach(() => vi.useRealTimers());

  function setup(random = () => 0.999999) {
    const outbox = createOutbox(
      createConfigDb({ indexedDB: new IDBFactory() }),
      { ownsConfigs: true },
    );
    const remote = createScriptedRemote();
    const failures: string[] = [];
    const conflicts: string[] = [];
    const queue = new SyncQueue({
      outbox,
      delivery: createDelivery(remote.store),
      backoff: { baseMs: 1000, capMs: 8000, random },
      events: {
        onFailure: (op, name) => failures.push(`${op}:${name}`),
        onChange: () => undefined,
        onConflict: (name) => conflicts.push(name),
        onMerged: () => undefined,
      },
    });
    const enqueue = (name: string) =>
      outbox.queue({
        name,
        config: { allLinks: {} },
        token: name,
        queuedAt: new Date().toISOString(),
      });
    const pending = async () => (await outbox.all()).length;
    return { outbox, remote, queue, failures, conflicts, enqueue, pending };
  }

  it('retries after exponentially growing delays, capped', async () => {
    const { remote, queue, enqueue } = setup();
    const attempts: number[] = [];
    remote.setScript((call) => {
      attempts.push(Date.now());
      return remoteFailure(call, 503);
    });
    await enqueue('n');
    const start = Date.now();
    await queue.drain();
    await advance(60_000);
    const gaps = attempts.map((t, i) =>
      i === 0 ? t - start : t - (attempts[i - 1] ?? 0),
    );
    expect(gaps.slice(0, 6)).toEqual([0, 999, 1999, 3999, 7999, 7999]);
    queue.close();
  });

  it('waits at least Retry-After before the next attempt', async () => {
    const { remote, queue, enqueue } = setup(() => 0);
    const attempts: number[] = [];
    remote.setScript((call) => {
      attempts.push(Date.now());
      return attempts.length === 1
        ? remoteFailure(call, 429, { retryAfterMs: 30_000 })
        : undefined;
    });
    await enqueue('n');
    await queue.drain();
    await advance(29_999);
    expect(attempts).toHaveLength(1);
    await advance(1);
    expect(attempts).toHaveLength(2);
    queue.close();
  });

  it('tries at once and forgets the backoff when the browser comes online', async () => {
    const { remote, queue, enqueue, pending } = setup();
    let down = true;
    remote.setScript((call) => (down ? remoteFailure(call, 0) : undefined));
    await enqueue('n');
    for (let i = 0; i < 5; i++) {
      await queue.drain();
    }
    down = false;
    queue.online();
    await advance(0);
    expect(await pending()).toBe(0);
    queue.close();
  });

  it('counts a timeout as transient and moves on to the next attempt (H13)', async () => {
    const { remote, queue, enqueue, pending, failures } = setup(() => 0);
    let first = true;
    remote.setScript((call) => {
      if (!first) return undefined;
      first = false;
      return remoteFailure(call, 0, { kind: 'timeout' });
    });
    await enqueue('n');
    await queue.drain();
    expect(await pending()).toBe(1);
    expect(failures).toEqual(['save:n']);
    await advance(1);
    expect(await pending()).toBe(0);
    queue.close();
  });

  it('drains without an online event once the server answers again (H11 in Node)', async () => {
    const { remote, queue, enqueue, pending } = setup(() => 0.5);
    let down = true;
    remote.setScript((call) => (down ? remoteFailure(call, 0) : undefined));
    await enqueue('n');
    await queue.drain();
    down = false;
    await advance(8000);
    expect(await pending()).toBe(0);
    queue.close();
  });

  it('sends nothing while a Retry-After holds, however many saves arrive, then delivers them all', async () => {
    const { remote, queue, enqueue, pending } = setup(() => 0);
    const attempts: number[] = [];
    remote.setScript((call) => {
      attempts.push(Date.now());
      return attempts.length === 1
        ? remoteFailure(call, 429, { retryAfterMs: 2000 })
        : undefined;
    });
    await enqueue('a');
    await queue.drain();
    expect(attempts).toHaveLength(1);
    await advance(300);
    await enqueue('b');
    await queue.drain();
    await advance(1000);
    await enqueue('c');
    queue.online();
    await advance(699);
    expect(attempts).toHaveLength(1);
    expect(queue.holdOffMs).toBe(1);
    await advance(1);
    expect(attempts).toHaveLength(4);
    expect(await pending()).toBe(0);
    queue.close();
  });

  it('holds delivery after a Retry-After answered to a read of the store', async () => {
    const { remote, queue, enqueue, pending } = setup(() => 0);
    queue.remoteFailed(
      remoteFailure({ op: 'list', name: '' }, 503, { retryAfterMs: 5000 }),
    );
    expect(queue.reachable).toBe(true);
    await enqueue('n');
    await queue.drain();
    await advance(4999);
    expect(remote.calls.filter((c) => c.op === 'save')).toHaveLength(0);
    await advance(1);
    expect(await pending()).toBe(0);
    queue.close();
  });

  it('sets a refused precondition aside as a conflict with the server side, reported once', async () => {
    const { remote, queue, outbox, failures, conflicts, pending } = setup(
      () => 0,
    );
    remote.writeDirect('n', {
      allLinks: { theirs: { url: 'https://theirs' } },
    });
    // A local creation: the store believes the server has no "n" (If-None-Match: *).
    await outbox.queue({
      name: 'n',
      config: { allLinks: { mine: { url: 'https://mine' } } },
      token: 't1',
      queuedAt: new Date().toISOString(),
    });
    await queue.drain();
    expect(await pending()).toBe(0);
    expect(failures).toEqual(['save:n']);
    expect(conflicts).toEqual(['n']);
    const [conflict] = await outbox.conflicts();
    expect(conflict).toMatchObject({
      name: 'n',
      local: { allLinks: { mine: { url: 'https://mine' } } },
      remote: { config: { allLinks: { theirs: { url: 'https://theirs' } } } },
      remoteEtag: remote.data.get('n')?.etag,
    });
    expect(remote.config('n')).toEqual({
      allLinks: { theirs: { url: 'https://theirs' } },
    });
    queue.close();
  });
});
