import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createMemoryOutbox,
  createScriptedRemote,
  remoteFailure,
} from '../testing/test-remote.js';
import { SyncQueue } from './sync-queue.js';

describe('SyncQueue timing (H12, H13)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function setup(random = () => 0.999999) {
    const outbox = createMemoryOutbox();
    const remote = createScriptedRemote();
    const failures: string[] = [];
    const queue = new SyncQueue({
      outbox,
      remote: remote.store,
      backoff: { baseMs: 1000, capMs: 8000, random },
      events: {
        onFailure: (op, name) => failures.push(`${op}:${name}`),
        onChange: () => undefined,
      },
    });
    const enqueue = (name: string) =>
      outbox.put({
        name,
        op: 'save',
        config: { allLinks: {} },
        token: name,
        queuedAt: new Date().toISOString(),
      });
    return { outbox, remote, queue, failures, enqueue };
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
    await vi.advanceTimersByTimeAsync(60_000);
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
    await vi.advanceTimersByTimeAsync(29_999);
    expect(attempts).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(attempts).toHaveLength(2);
    queue.close();
  });

  it('tries at once and forgets the backoff when the browser comes online', async () => {
    const { remote, queue, enqueue, outbox } = setup();
    let down = true;
    remote.setScript((call) => (down ? remoteFailure(call, 0) : undefined));
    await enqueue('n');
    for (let i = 0; i < 5; i++) {
      await queue.drain();
    }
    down = false;
    queue.online();
    await vi.advanceTimersByTimeAsync(0);
    expect(outbox.entries.size).toBe(0);
    queue.close();
  });

  it('counts a timeout as transient and moves on to the next attempt (H13)', async () => {
    const { remote, queue, enqueue, outbox, failures } = setup(() => 0);
    let first = true;
    remote.setScript((call) => {
      if (!first) return undefined;
      first = false;
      return remoteFailure(call, 0, { kind: 'timeout' });
    });
    await enqueue('n');
    await queue.drain();
    expect(outbox.entries.size).toBe(1);
    expect(failures).toEqual(['save:n']);
    await vi.advanceTimersByTimeAsync(1);
    expect(outbox.entries.size).toBe(0);
    queue.close();
  });

  it('drains without an online event once the server answers again (H11 in Node)', async () => {
    const { remote, queue, enqueue, outbox } = setup(() => 0.5);
    let down = true;
    remote.setScript((call) => (down ? remoteFailure(call, 0) : undefined));
    await enqueue('n');
    await queue.drain();
    down = false;
    await vi.advanceTimersByTimeAsync(8000);
    expect(outbox.entries.size).toBe(0);
    queue.close();
  });
});
