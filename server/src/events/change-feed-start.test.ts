/**
 * `ChangeFeed.startingPoint`: where a stream "from now on" starts, fixed before a route answers.
 */
import { describe, expect, it, vi } from 'vitest';
import { createMemoryConfigRepository } from '../storage/memory/memory-config-repository.js';
import { ChangeFeed } from './change-feed.js';
import type { ChangeSource } from './feed-options.js';
import type { Subscriber } from './subscriber.js';

/** A memory repository whose head reads are counted, and held or failed on demand. */
function source() {
  const repo = createMemoryConfigRepository();
  const state = {
    reads: 0,
    gate: undefined as Promise<void> | undefined,
    failure: undefined as Error | undefined,
  };
  const feedSource: ChangeSource = {
    head: async () => {
      state.reads++;
      if (state.gate !== undefined) await state.gate;
      if (state.failure !== undefined) throw state.failure;
      return repo.head();
    },
    readLog: (options) => repo.readLog(options),
    watch: (listener) => repo.watch(listener),
  };
  const hold = () => {
    let release!: () => void;
    state.gate = new Promise((resolve) => (release = resolve));
    return () => {
      state.gate = undefined;
      release();
    };
  };
  return { repo, state, feedSource, hold };
}

const quiet = (): Subscriber => ({
  cursor: 0,
  deliver: () => true,
  reset: () => true,
  heartbeat: () => undefined,
  room: () => Promise.resolve(),
  backlog: () => 0,
  end: () => undefined,
});

describe('ChangeFeed.startingPoint', () => {
  it('reads the head once for callers that ask together while no stream is open', async () => {
    const { repo, state, feedSource } = source();
    await repo.put('a', '{}');
    await repo.put('b', '{}');
    const feed = new ChangeFeed({ source: feedSource });
    expect(
      await Promise.all([
        feed.startingPoint(),
        feed.startingPoint(),
        feed.startingPoint(),
      ]),
    ).toEqual([2, 2, 2]);
    expect(state.reads).toBe(1);
    await repo.put('c', '{}');
    // A later caller reads again: the shared read is over.
    expect(await feed.startingPoint()).toBe(3);
    expect(state.reads).toBe(2);
  });

  it('is the dispatch position, without a read, while streams are open', async () => {
    const { repo, state, feedSource } = source();
    await repo.put('a', '{}');
    const feed = new ChangeFeed({ source: feedSource });
    expect(feed.join(quiet(), 1)).toBeNull();
    expect(await feed.startingPoint()).toBe(1);
    const reads = state.reads;
    await repo.put('b', '{}');
    await vi.waitFor(async () => expect(await feed.startingPoint()).toBe(2));
    expect(state.reads).toBe(reads);
    feed.close();
  });

  it('reads the head again when the feed stops while its first read is out', async () => {
    const { repo, feedSource, hold } = source();
    await repo.put('a', '{}');
    const feed = new ChangeFeed({ source: feedSource });
    const release = hold();
    const sub = quiet();
    feed.join(sub);
    const point = feed.startingPoint();
    feed.leave(sub);
    await repo.put('b', '{}');
    release();
    expect(await point).toBe(2);
  });

  it('answers unavailable, reported once, when the head cannot be read', async () => {
    const { state, feedSource } = source();
    const onError = vi.fn();
    const feed = new ChangeFeed({ source: feedSource, onError });
    state.failure = new Error('storage down');
    expect(
      await Promise.all([feed.startingPoint(), feed.startingPoint()]),
    ).toEqual(['unavailable', 'unavailable']);
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onError).toHaveBeenCalledWith(state.failure);
    // A running feed whose head read failed answers the same.
    feed.join(quiet());
    expect(await feed.startingPoint()).toBe('unavailable');
    state.failure = undefined;
    expect(await feed.startingPoint()).toBe(0);
  });

  it('answers the refusal, without reading, when no stream may open', async () => {
    const { state, feedSource } = source();
    const feed = new ChangeFeed({ source: feedSource, maxStreams: 1 });
    feed.join(quiet(), 0);
    const reads = state.reads;
    expect(await feed.startingPoint()).toBe('full');
    feed.close();
    expect(await feed.startingPoint()).toBe('closed');
    expect(state.reads).toBe(reads);
  });
});
