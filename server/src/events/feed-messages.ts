import type { ChangeMessage } from '@linkconfig/shared';
import type { ChangeFeed } from './change-feed.js';
import { REFUSAL_MESSAGES } from './feed-options.js';
import type { Refusal } from './feed-options.js';
import type { EndReason, Subscriber } from './subscriber.js';

/** One message of the feed with the id a client resumes from. */
export interface FeedMessage {
  readonly id: number;
  readonly message: ChangeMessage;
}

/** The feed could not open, or ended the stream; the client should reconnect (and resume by id). */
export class FeedUnavailableError extends Error {
  override readonly name = 'FeedUnavailableError';
  constructor(readonly reason: Refusal | EndReason) {
    super(
      reason === 'overflow'
        ? 'the stream fell too far behind; resume from the last id'
        : reason === 'shutdown'
          ? REFUSAL_MESSAGES.closed
          : REFUSAL_MESSAGES[reason],
    );
  }
}

/** Options of {@link feedMessages}. */
export interface FeedMessagesOptions {
  readonly lastEventId?: number | undefined;
  /** Ends the iteration when the client goes away. */
  readonly signal?: AbortSignal | undefined;
  /** Which names the reader may see; changes of other names are skipped (absent: all). */
  readonly readable?: ((name: string) => boolean) | undefined;
}

/**
 * The feed as an async iterable, for the tRPC subscription: every change after `lastEventId` (or from
 * now on), then live ones, as messages with ids. The queue is bounded by the feed's `bufferBytes`; when
 * the consumer falls further behind, or the server stops, it is dropped and the iteration throws
 * {@link FeedUnavailableError}, so the client reconnects with the last id it saw.
 */
export async function* feedMessages(
  feed: ChangeFeed,
  options: FeedMessagesOptions = {},
): AsyncGenerator<FeedMessage, void, undefined> {
  const bound = feed.bufferBytes;
  const queue: { message: FeedMessage; bytes: number }[] = [];
  let queued = 0;
  let ended: EndReason | undefined;
  let wake: (() => void) | undefined;
  let waiters: (() => void)[] = [];
  const notify = (): void => {
    wake?.();
    wake = undefined;
  };
  const release = (): void => {
    const ready = waiters;
    waiters = [];
    for (const resolve of ready) resolve();
  };
  const push = (message: FeedMessage, bytes: number): boolean => {
    if (ended !== undefined) return false;
    const empty = queue.length === 0;
    queue.push({ message, bytes });
    queued += bytes;
    notify();
    // One message alone in the queue is always taken, however long.
    return empty || queued <= bound;
  };
  const subscriber: Subscriber = {
    cursor: 0,
    deliver: (item) => {
      const { readable } = options;
      if (readable !== undefined && !readable(item.name)) return true;
      let message: ChangeMessage;
      if (item.change !== undefined) {
        const { id: _id, ...change } = item.change;
        message = { type: 'change', ...change };
      } else if (item.event !== undefined) message = item.event;
      else return true;
      // The SSE frame's length is a fair measure of the message, and is shared with the SSE streams.
      return push({ id: item.id, message }, item.frame().byteLength);
    },
    reset: (head) => push({ id: head, message: { type: 'reset' } }, 64),
    heartbeat: () => undefined,
    backlog: () => queued,
    room: () =>
      ended !== undefined || queued <= bound / 2
        ? Promise.resolve()
        : new Promise((resolve) => waiters.push(resolve)),
    end: (reason) => {
      ended = reason;
      // What a slow consumer has not taken is dropped now; it resumes by id.
      if (reason === 'overflow') {
        queue.length = 0;
        queued = 0;
      }
      release();
      notify();
    },
  };

  const refused = feed.join(subscriber, options.lastEventId);
  if (refused !== null) throw new FeedUnavailableError(refused);
  const signal = options.signal;
  const onAbort = (): void => notify();
  signal?.addEventListener('abort', onAbort);
  try {
    for (;;) {
      if (signal?.aborted === true) return;
      const next = queue.shift();
      if (next !== undefined) {
        queued -= next.bytes;
        if (queued <= bound / 2) release();
        yield next.message;
        continue;
      }
      if (ended !== undefined) throw new FeedUnavailableError(ended);
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    release();
    feed.leave(subscriber);
  }
}
