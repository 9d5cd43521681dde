import { ChangeMessageSchema } from '@linkconfig/shared';
import { describe, expect, it, vi } from 'vitest';
import { createMemoryConfigRepository } from '../storage/memory/memory-config-repository.js';
import type { ConfigRepository } from '../storage/config-repository.js';
import { ChangeFeed } from './change-feed.js';
import type { ChangeFeedOptions } from './feed-options.js';
import { feedMessages, FeedUnavailableError } from './feed-messages.js';
import type { FeedMessage } from './feed-messages.js';
import { openSseStream } from './sse-stream.js';
import type { FeedItem, Subscriber } from './subscriber.js';

const setup = (options: Partial<ChangeFeedOptions> = {}) => {
  const repo = createMemoryConfigRepository();
  const feed = new ChangeFeed({ source: repo, ...options });
  return { repo, feed };
};

/** A subscriber that records what it gets. */
function recorder(): Subscriber & {
  items: FeedItem[];
  resets: number[];
  ended: string[];
} {
  return {
    cursor: 0,
    items: [],
    resets: [],
    ended: [],
    deliver(item) {
      this.items.push(item);
      return true;
    },
    reset(head) {
      this.resets.push(head);
      return true;
    },
    heartbeat: () => undefined,
    room: () => Promise.resolve(),
    backlog: () => 0,
    end(reason) {
      this.ended.push(reason);
    },
  };
}

const names = (s: { items: FeedItem[] }) => s.items.map((item) => item.name);

async function putAll(repo: ConfigRepository, list: string[]): Promise<void> {
  for (const name of list) await repo.put(name, '{}');
}

/** Reads an SSE stream until `done` holds for the text so far. */
async function readUntil(
  stream: ReadableStream<Uint8Array>,
  done: (text: string) => boolean,
): Promise<string> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!done(text)) {
    const { value, done: end } = await reader.read();
    if (end) break;
    text += decoder.decode(value, { stream: true });
  }
  reader.releaseLock();
  return text;
}

describe('ChangeFeed', () => {
  it('sends a stream joined at its starting point only the changes made after it', async () => {
    const { repo, feed } = setup();
    await putAll(repo, ['before']);
    const sub = recorder();
    const after = await feed.startingPoint();
    expect(after).toBe(1);
    expect(feed.join(sub, Number(after))).toBeNull();
    await putAll(repo, ['a', 'b']);
    await repo.remove('a');
    await vi.waitFor(() => expect(sub.items).toHaveLength(3));
    expect(names(sub)).toEqual(['a', 'b', 'a']);
    expect(sub.items.map((i) => i.change?.op)).toEqual([
      'put',
      'put',
      'delete',
    ]);
    feed.close();
  });

  it('resumes after an id with every later change, once each, in order, while writes go on', async () => {
    const { repo, feed } = setup({ pageSize: 2 });
    await putAll(repo, ['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7']);
    // Another stream keeps the dispatch running while the resuming one catches up.
    const live = recorder();
    feed.join(live);
    const sub = recorder();
    feed.join(sub, 2);
    const writes = putAll(repo, ['w1', 'w2', 'w3', 'w4']);
    await writes;
    await vi.waitFor(() => expect(sub.items).toHaveLength(9));
    expect(sub.items.map((i) => i.id)).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(sub.items).toHaveLength(9);
    feed.close();
  });

  it('asks a stream to reset when its id is before the log’s horizon, then follows from the head', async () => {
    const repo = createMemoryConfigRepository();
    const feed = new ChangeFeed({ source: repo });
    await putAll(repo, ['a', 'b', 'c', 'd']);
    // A restore moves the horizon to the head: readers from before it re-list.
    await repo.restoreRows({ configs: [], revisions: [] });
    const sub = recorder();
    feed.join(sub, 1);
    await vi.waitFor(() => expect(sub.resets).toEqual([4]));
    await putAll(repo, ['e']);
    await vi.waitFor(() => expect(names(sub)).toEqual(['e']));
    feed.close();
  });

  it('hands every stream the same item, whose bytes are encoded once', async () => {
    const { repo, feed } = setup();
    const subs = [recorder(), recorder(), recorder()];
    for (const sub of subs) feed.join(sub);
    await new Promise((resolve) => setTimeout(resolve, 10));
    await putAll(repo, ['x']);
    await vi.waitFor(() =>
      expect(subs.every((s) => s.items.length === 1)).toBe(true),
    );
    const [first, ...others] = subs.map((s) => s.items[0]);
    for (const item of others) expect(item).toBe(first);
    expect(first?.frame()).toBe(first?.frame());
    feed.close();
  });

  it('refuses streams over the cap and takes them again when one leaves', () => {
    const { feed } = setup({ maxStreams: 2 });
    const [a, b, c] = [recorder(), recorder(), recorder()];
    expect(feed.join(a)).toBeNull();
    expect(feed.join(b)).toBeNull();
    expect(feed.join(c)).toBe('full');
    feed.leave(a);
    expect(feed.join(c)).toBeNull();
    feed.close();
    expect(feed.join(recorder())).toBe('closed');
  });

  it('ends every stream on close and stops watching the repository', async () => {
    const repo = createMemoryConfigRepository();
    const unwatch = vi.fn();
    const watch = vi.fn((listener: () => void) => {
      const stop = repo.watch(listener);
      return () => {
        unwatch();
        stop();
      };
    });
    const feed = new ChangeFeed({ source: { ...repo, watch } });
    const sub = recorder();
    feed.join(sub);
    expect(watch).toHaveBeenCalledTimes(1);
    feed.close();
    expect(sub.ended).toEqual(['shutdown']);
    expect(unwatch).toHaveBeenCalledTimes(1);
    expect(feed.openStreams).toBe(0);
  });

  it('stops watching when the last stream leaves, and starts again from the head', async () => {
    const repo = createMemoryConfigRepository();
    const stops = vi.fn();
    const feed = new ChangeFeed({
      source: {
        ...repo,
        watch: (listener) => {
          const stop = repo.watch(listener);
          return () => {
            stops();
            stop();
          };
        },
      },
    });
    const first = recorder();
    feed.join(first);
    feed.leave(first);
    expect(stops).toHaveBeenCalledTimes(1);
    await putAll(repo, ['while-idle']);
    const second = recorder();
    feed.join(second);
    await new Promise((resolve) => setTimeout(resolve, 10));
    await putAll(repo, ['later']);
    await vi.waitFor(() => expect(names(second)).toEqual(['later']));
    feed.close();
  });

  it('reports a failed read and tries again, so the change still arrives', async () => {
    const repo = createMemoryConfigRepository();
    let failures = 1;
    const onError = vi.fn();
    const feed = new ChangeFeed({
      onError,
      source: {
        ...repo,
        readLog: (page) =>
          failures-- > 0
            ? Promise.reject(new Error('connection lost'))
            : repo.readLog(page),
      },
    });
    const sub = recorder();
    feed.join(sub);
    await new Promise((resolve) => setTimeout(resolve, 10));
    await putAll(repo, ['a']);
    await vi.waitFor(() => expect(names(sub)).toEqual(['a']), {
      timeout: 3000,
    });
    expect(onError).toHaveBeenCalledWith(new Error('connection lost'));
    feed.close();
  });

  it('drops a subscriber whose buffer is full', async () => {
    const { repo, feed } = setup();
    const sub = recorder();
    sub.deliver = () => false;
    sub.backlog = () => Number.POSITIVE_INFINITY;
    feed.join(sub);
    await new Promise((resolve) => setTimeout(resolve, 10));
    await putAll(repo, ['a']);
    await vi.waitFor(() => expect(sub.ended).toEqual(['overflow']));
    expect(feed.openStreams).toBe(0);
  });
});

describe('openSseStream', () => {
  it('frames changes with id, event and data, after an opening comment', async () => {
    const { repo, feed } = setup();
    await putAll(repo, ['a']);
    const stream = openSseStream(feed, { lastEventId: 0 });
    if (typeof stream === 'string') throw new Error(stream);
    const text = await readUntil(stream, (t) => t.includes('id: 1\n'));
    const page = await repo.readLog({ after: 0, limit: 1 });
    const etag = page.reset ? '' : page.changes[0]?.etag;
    expect(text).toMatch(/^retry: \d+\n: connected\n\n/);
    expect(text).toContain(
      `id: 1\nevent: change\ndata: {"name":"a","op":"put","etag":${JSON.stringify(etag)},"updatedAt":"`,
    );
    feed.close();
  });

  it('sends a heartbeat comment on an idle stream', async () => {
    const { feed } = setup({ heartbeatMs: 20 });
    const stream = openSseStream(feed);
    if (typeof stream === 'string') throw new Error(stream);
    expect(
      await readUntil(stream, (t) => t.includes(': heartbeat\n\n')),
    ).toContain(': heartbeat');
    feed.close();
  });

  it('cuts off a consumer that does not read, and leaves the feed', async () => {
    const { repo, feed } = setup({ bufferBytes: 2048 });
    const stream = openSseStream(feed);
    if (typeof stream === 'string') throw new Error(stream);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(feed.openStreams).toBe(1);
    for (let i = 0; i < 40; i++) await repo.put(`name-${i}`, '{}');
    await vi.waitFor(() => expect(feed.openStreams).toBe(0));
    await expect(readUntil(stream, () => false)).rejects.toThrow(
      /too far behind/,
    );
  });

  it('ends cleanly on close, and leaves the feed when the client cancels', async () => {
    const { feed } = setup();
    const closing = openSseStream(feed);
    const cancelled = openSseStream(feed);
    if (typeof closing === 'string' || typeof cancelled === 'string')
      throw new Error('refused');
    expect(feed.openStreams).toBe(2);
    await cancelled.cancel();
    expect(feed.openStreams).toBe(1);
    feed.close();
    expect(await readUntil(closing, () => false)).toContain(': connected');
    expect(openSseStream(feed)).toBe('closed');
  });
});

describe('feedMessages', () => {
  it('yields the log events the feed shows, caught up and live, only about names the reader may read', async () => {
    const repo = createMemoryConfigRepository();
    const feed = new ChangeFeed({ source: repo });
    await putAll(repo, ['a', 'b']);
    await repo.appendEvent({
      type: 'link-broken',
      name: 'b',
      detail: { url: 'u' },
    });
    await repo.appendEvent({ type: 'publish', name: 'a', detail: { rev: 1 } });
    await repo.appendEvent({ type: 'other', name: 'a' });
    const read = (readable?: (name: string) => boolean) => {
      const got: FeedMessage[] = [];
      const done = (async () => {
        for await (const message of feedMessages(feed, {
          lastEventId: 0,
          readable,
        })) {
          got.push(message);
          if (
            message.message.type === 'change' &&
            message.message.name === 'end'
          )
            return;
        }
      })();
      return { got, done };
    };
    const onlyA = read((name) => name !== 'b');
    const all = read();
    await vi.waitFor(() => expect(onlyA.got).toHaveLength(2));
    await repo.appendEvent({ type: 'publish', name: 'b', detail: { rev: 1 } });
    await repo.appendEvent({
      type: 'link-recovered',
      name: 'a',
      detail: { url: 'u' },
    });
    await putAll(repo, ['end']);
    await Promise.all([onlyA.done, all.done]);
    const summary = (got: FeedMessage[]) =>
      got.map(({ message }) =>
        message.type === 'reset' ? ['reset'] : [message.type, message.name],
      );
    expect(summary(onlyA.got)).toEqual([
      ['change', 'a'],
      ['publish', 'a'],
      ['link-recovered', 'a'],
      ['change', 'end'],
    ]);
    expect(summary(all.got)).toEqual([
      ['change', 'a'],
      ['change', 'b'],
      ['link-broken', 'b'],
      ['publish', 'a'],
      ['publish', 'b'],
      ['link-recovered', 'a'],
      ['change', 'end'],
    ]);
    for (const { message } of all.got) {
      expect(ChangeMessageSchema.parse(message)).toEqual(message);
    }
    expect(onlyA.got[1]).toMatchObject({
      id: 4,
      message: { type: 'publish', name: 'a', detail: { rev: 1 } },
    });
  });

  it('yields changes and resets with their ids', async () => {
    const repo = createMemoryConfigRepository();
    const feed = new ChangeFeed({ source: repo });
    await putAll(repo, ['a', 'b']);
    await repo.restoreRows({ configs: [], revisions: [] });
    const got: FeedMessage[] = [];
    const iteration = (async () => {
      for await (const message of feedMessages(feed, { lastEventId: 0 })) {
        got.push(message);
        if (got.length === 2) return;
      }
    })();
    await vi.waitFor(() => expect(got).toHaveLength(1));
    await putAll(repo, ['c']);
    await iteration;
    expect(got).toEqual([
      { id: 2, message: { type: 'reset' } },
      {
        id: 3,
        message: expect.objectContaining({ type: 'change', name: 'c' }),
      },
    ]);
    expect(feed.openStreams).toBe(0);
  });

  it('throws FeedUnavailableError when the consumer falls behind, or the feed is full', async () => {
    const { repo, feed } = setup({ bufferBytes: 1024, maxStreams: 1 });
    const iterator = feedMessages(feed);
    const first = iterator.next();
    await new Promise((resolve) => setTimeout(resolve, 10));
    await expect(feedMessages(feed).next()).rejects.toThrow(
      FeedUnavailableError,
    );
    for (let i = 0; i < 30; i++) await repo.put(`name-${i}`, '{}');
    await vi.waitFor(() => expect(feed.openStreams).toBe(0));
    await first;
    await expect(
      (async () => {
        for (;;) if ((await iterator.next()).done) return;
      })(),
    ).rejects.toThrow(/too far behind/);
  });

  it('ends when the signal aborts', async () => {
    const { feed } = setup();
    const abort = new AbortController();
    const iteration = feedMessages(feed, { signal: abort.signal }).next();
    await vi.waitFor(() => expect(feed.openStreams).toBe(1));
    abort.abort();
    expect(await iteration).toEqual({ done: true, value: undefined });
    expect(feed.openStreams).toBe(0);
  });
});

describe('catching up (F1, F2)', () => {
  const long = (i: number) => `${'€'.repeat(200)}${i}`;

  it('hands a reader far behind every change as it makes room, however small the buffer (F1)', async () => {
    const { repo, feed } = setup({ bufferBytes: 2048, pageSize: 50 });
    await putAll(
      repo,
      Array.from({ length: 120 }, (_, i) => long(i)),
    );
    const got: FeedMessage[] = [];
    for await (const message of feedMessages(feed, { lastEventId: 0 })) {
      got.push(message);
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (got.length === 120) break;
    }
    expect(got.map((m) => m.id)).toEqual(
      Array.from({ length: 120 }, (_, i) => i + 1),
    );
    const stream = openSseStream(feed, { lastEventId: 0 });
    if (typeof stream === 'string') throw new Error(stream);
    const text = await readUntil(stream, (t) => t.includes('id: 120\n'));
    expect(text.match(/event: change/g)).toHaveLength(120);
    feed.close();
  });

  it('sends a live reader overfilled by a burst back to catching up instead of cutting it off (F1)', async () => {
    const { repo, feed } = setup({ bufferBytes: 2048 });
    const sse = openSseStream(feed);
    if (typeof sse === 'string') throw new Error(sse);
    const messages = feedMessages(feed);
    const first = messages.next();
    await vi.waitFor(() => expect(feed.openStreams).toBe(2));
    // Written without waiting for the feed: it reads them in a few large pages.
    await Promise.all(
      Array.from({ length: 100 }, (_, i) => repo.put(long(i), '{}')),
    );
    const text = await readUntil(sse, (t) => t.includes('id: 100\n'));
    expect(text.match(/event: change/g)).toHaveLength(100);
    const ids = [(await first).value?.id];
    for await (const message of { [Symbol.asyncIterator]: () => messages }) {
      ids.push(message.id);
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (message.id === 100) break;
    }
    expect(ids).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    feed.close();
  });

  it('reports a cut with the stream’s number and how far behind it was (F1)', async () => {
    const onCut = vi.fn();
    const { repo, feed } = setup({ bufferBytes: 2048, onCut });
    openSseStream(feed);
    const stream = openSseStream(feed);
    if (typeof stream === 'string') throw new Error(stream);
    await new Promise((resolve) => setTimeout(resolve, 10));
    for (let i = 0; i < 40; i++) await repo.put(`name-${i}`, '{}');
    await vi.waitFor(() => expect(feed.openStreams).toBe(0));
    expect(onCut).toHaveBeenCalledTimes(2);
    expect(onCut).toHaveBeenCalledWith({
      stream: 2,
      cursor: expect.any(Number),
      head: expect.any(Number),
      behindChanges: expect.any(Number),
      bufferedBytes: expect.any(Number),
    });
    const cut = onCut.mock.calls[1]?.[0] as { bufferedBytes: number };
    expect(cut.bufferedBytes).toBeGreaterThan(2048);
  });

  it('asks a stream resuming from an id beyond the newest change to reset (F2)', async () => {
    const { repo, feed } = setup();
    await putAll(repo, ['a', 'b']);
    const sub = recorder();
    feed.join(sub, 7);
    await vi.waitFor(() => expect(sub.resets).toEqual([2]));
    await putAll(repo, ['c']);
    await vi.waitFor(() => expect(names(sub)).toEqual(['c']));
    feed.close();
  });
});
