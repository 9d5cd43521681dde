/**
 * The client of the server's change feed (`GET /events`, Server-Sent Events). It is read with `fetch`
 * rather than `EventSource`, because `EventSource` cannot send an `Authorization` header; the stream is
 * parsed by `eventsource-parser`. A dropped stream is reopened with the last event id, after a jittered
 * backoff that honours `Retry-After`.
 */
import { createParser } from 'eventsource-parser';
import type { EventSourceMessage } from 'eventsource-parser';
import { Backoff } from '../backoff.js';
import type { BackoffOptions } from '../backoff.js';
import { parseChangeEvent } from './change-event.js';
import type { ChangeEvent } from './change-event.js';
import type { HttpCaller } from './http-call.js';
import { RemoteStoreError } from './remote-store-error.js';

/** The connection states of a change feed, in the order a healthy feed goes through them. */
export const FEED_STATES = ['connecting', 'connected', 'disconnected'] as const;
/** Whether the feed is opening, streaming, or waiting to reconnect after a drop. */
export type FeedState = (typeof FEED_STATES)[number];

/** Options of {@link openChangeFeed} (and of the remote store's `watchChanges`). */
export interface ChangeFeedOptions {
  /** Called for each committed change, in the server's order. */
  onChange: (event: ChangeEvent) => void;
  /** Called when the server cannot replay what was missed: re-list everything. */
  onReset?: () => void;
  /** Called whenever the connection state changes. */
  onState?: (state: FeedState) => void;
  /** Called when opening the stream fails (once per failure streak, not on every retry). */
  onError?: (error: RemoteStoreError) => void;
  /** Resume after this event id (sent as `Last-Event-ID`). */
  lastEventId?: string;
  backoff?: BackoffOptions;
  /**
   * Reconnect when nothing (no event, no heartbeat) arrived for this long, in ms (default 45 000: three
   * missed heartbeats of the server).
   */
  idleTimeoutMs?: number;
}

/** A running change feed. */
export interface ChangeFeed {
  /** The id of the last event received, the resume point. */
  readonly lastEventId: string | undefined;
  readonly state: FeedState;
  /** Stops the feed for good. */
  close(): void;
}

/** Opens the change feed of the server behind `caller`; it runs until `close()`. */
export function openChangeFeed(
  caller: HttpCaller,
  options: ChangeFeedOptions,
): ChangeFeed {
  const backoff = new Backoff(options.backoff);
  const idleTimeoutMs = options.idleTimeoutMs ?? 45_000;
  let lastEventId = options.lastEventId;
  let state: FeedState = 'connecting';
  let closed = false;
  let current: AbortController | null = null;
  let wake: (() => void) | null = null;
  let reportedFailure = false;

  const setState = (next: FeedState) => {
    if (state === next) return;
    state = next;
    safely(() => options.onState?.(next));
  };

  const onEvent = (message: EventSourceMessage) => {
    if (message.id !== undefined) lastEventId = message.id;
    if (message.event === 'reset') {
      safely(() => options.onReset?.());
    } else if (message.event === 'change') {
      const event = parseChangeEvent(message.id ?? '', message.data);
      // A malformed event cannot be acted on; the next re-list or event for that name repairs it.
      if (event) safely(() => options.onChange(event));
    }
  };

  /** Reads one connection until it ends; resolves whether anything arrived. */
  const readStream = async (
    response: Response,
    controller: AbortController,
  ) => {
    const body = response.body;
    if (!body) return false;
    const reader = body.getReader();
    const decoder = new TextDecoder();
    const parser = createParser({
      onEvent,
      // Bounded: a stream that never ends an event must not grow memory without limit.
      maxBufferSize: 1_048_576,
      onError: () => controller.abort(),
    });
    let received = false;
    let idle = setTimeout(() => controller.abort(), idleTimeoutMs);
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done || closed) break;
        clearTimeout(idle);
        idle = setTimeout(() => controller.abort(), idleTimeoutMs);
        received = true;
        parser.feed(decoder.decode(value, { stream: true }));
      }
    } catch {
      // An aborted or broken stream ends like a closed one: reconnect.
    } finally {
      clearTimeout(idle);
      reader.releaseLock();
    }
    return received;
  };

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = null;
        resolve();
      }
      wake = done;
    });

  const run = async () => {
    while (!closed) {
      setState('connecting');
      const controller = new AbortController();
      current = controller;
      let retryAfterMs: number | undefined;
      try {
        const headers: Record<string, string> = {
          Accept: 'text/event-stream',
        };
        if (lastEventId !== undefined) headers['Last-Event-ID'] = lastEventId;
        const response = await caller.open(
          {
            op: 'watch',
            configName: '',
            method: 'GET',
            path: '/events',
            headers,
          },
          controller.signal,
        );
        if (closed) break;
        setState('connected');
        reportedFailure = false;
        // A stream that carried something was healthy: the next drop starts the backoff over.
        if (await readStream(response, controller)) backoff.reset();
      } catch (error) {
        if (closed) break;
        const failure =
          error instanceof RemoteStoreError
            ? error
            : new RemoteStoreError({
                op: 'watch',
                configName: '',
                kind: 'network',
                status: 0,
                message: 'GET /events: the stream could not be opened',
                cause: error,
              });
        retryAfterMs = failure.retryAfterMs;
        if (!reportedFailure) safely(() => options.onError?.(failure));
        reportedFailure = true;
      } finally {
        controller.abort();
        current = null;
      }
      if (closed) break;
      setState('disconnected');
      await sleep(backoff.next(retryAfterMs));
    }
  };
  void run();

  return {
    get lastEventId() {
      return lastEventId;
    },
    get state() {
      return state;
    },
    close() {
      closed = true;
      current?.abort();
      wake?.();
    },
  };
}

/** Runs a listener; a throwing listener must not break the stream (it would replay the same event forever). */
function safely(listener: () => void): void {
  try {
    listener();
  } catch {
    // The listener's own problem; the feed goes on.
  }
}
