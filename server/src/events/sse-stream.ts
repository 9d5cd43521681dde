import type { ChangeFeed } from './change-feed.js';
import type { Refusal } from './feed-options.js';
import { HEARTBEAT_FRAME, OPENING_FRAME, resetFrame } from './sse-frames.js';
import type { Subscriber } from './subscriber.js';

/** Options of {@link openSseStream}. */
export interface SseStreamOptions {
  /** Resume after this id; without it, the stream starts with the changes made from now on. */
  readonly lastEventId?: number | undefined;
  /** Closes the connection (destroys the socket), for a consumer that fell too far behind. */
  readonly hangUp?: (() => void) | undefined;
  /** Which names the reader may see; changes of other names are skipped (absent: all). */
  readonly readable?: ((name: string) => boolean) | undefined;
}

/**
 * Opens one `text/event-stream` body on the feed: every change after `lastEventId` (or from now on),
 * then live ones. The stream's queue is bounded by the feed's `bufferBytes`: a consumer that falls
 * further behind is cut off (the stream errors, so the socket closes) and resumes by id. Cancelling the
 * stream (the client went away) leaves the feed. Returns the refusal when the feed is full or closed.
 */
export function openSseStream(
  feed: ChangeFeed,
  options: SseStreamOptions = {},
): ReadableStream<Uint8Array> | Refusal {
  const { lastEventId, hangUp, readable } = options;
  const refused = feed.refusal();
  if (refused !== null) return refused;
  const bound = feed.bufferBytes;
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  let ended = false;
  let waiters: (() => void)[] = [];
  const room = (): number => controller?.desiredSize ?? 0;
  const release = (): void => {
    const ready = waiters;
    waiters = [];
    for (const resolve of ready) resolve();
  };
  /**
   * Queues bytes; `false` once the consumer is more than the bound behind (one frame alone in the queue
   * is always taken, however long).
   */
  const push = (bytes: Uint8Array): boolean => {
    if (ended || controller === undefined) return false;
    const empty = room() >= bound;
    controller.enqueue(bytes);
    return empty || room() >= 0;
  };

  const subscriber: Subscriber = {
    cursor: 0,
    // A change the reader may not see is skipped as if it never happened (no frame, no id).
    deliver: (item) =>
      readable !== undefined && !readable(item.name)
        ? true
        : push(item.frame()),
    reset: (head) => push(resetFrame(head)),
    heartbeat: () => {
      // A consumer with a backlog is not idle; a heartbeat would only grow the queue.
      if (!ended && room() > 0) controller?.enqueue(HEARTBEAT_FRAME);
    },
    backlog: () => Math.max(0, bound - room()),
    room: () =>
      ended || room() > bound / 2
        ? Promise.resolve()
        : new Promise((resolve) => waiters.push(resolve)),
    end: (reason) => {
      if (ended) return;
      ended = true;
      release();
      if (reason === 'overflow') {
        // Drop the queued bytes and the connection at once: the socket itself when the server gives
        // us one, else an error (not a close) on the stream.
        if (hangUp === undefined) {
          controller?.error(new Error('the consumer fell too far behind'));
        } else {
          hangUp();
        }
      } else {
        controller?.close();
      }
    },
  };

  const stream = new ReadableStream<Uint8Array>(
    {
      start: (c) => {
        controller = c;
        c.enqueue(OPENING_FRAME);
      },
      pull: () => {
        if (room() > bound / 2) release();
      },
      cancel: () => {
        ended = true;
        release();
        feed.leave(subscriber);
      },
    },
    { highWaterMark: bound, size: (chunk) => chunk.byteLength },
  );
  const late = feed.join(subscriber, lastEventId);
  // Only a race with close() can refuse here (the check above passed synchronously).
  if (late !== null) subscriber.end('shutdown');
  return stream;
}
