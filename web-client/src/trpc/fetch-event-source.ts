/**
 * An `EventSource` for tRPC's `httpSubscriptionLink` that can send headers (the browser's cannot, so a
 * server with `READ_TOKEN` would refuse it): the stream is read with `fetch` and parsed by
 * `eventsource-parser`. Like `EventSource`, it reconnects after a dropped stream (waiting the server's
 * `retry:` time), sending `Last-Event-ID`, and gives up on a response that is not an event stream.
 */
import { createParser } from 'eventsource-parser';

/** The second argument of the constructor: what every request of the stream sends. */
export interface FetchEventSourceInit {
  readonly headers?: Record<string, string>;
}

const CONNECTING = 0;
const OPEN = 1;
const CLOSED = 2;
/** Wait before reconnecting until the server says otherwise (`retry:`). */
const DEFAULT_RETRY_MS = 2000;
/** Most bytes of one unfinished event: a stream that never ends one must not grow memory forever. */
const MAX_EVENT_BYTES = 1_048_576;

export class FetchEventSource extends EventTarget {
  static readonly CONNECTING = CONNECTING;
  static readonly OPEN = OPEN;
  static readonly CLOSED = CLOSED;
  readonly CONNECTING = CONNECTING;
  readonly OPEN = OPEN;
  readonly CLOSED = CLOSED;
  readonly url: string;
  readonly withCredentials = false;
  readyState: number = CONNECTING;
  readonly #headers: Record<string, string>;
  /** Aborts the connection being read. */
  #current: AbortController | undefined;
  #lastEventId = '';
  #retryMs = DEFAULT_RETRY_MS;

  constructor(url: string | URL, init: FetchEventSourceInit = {}) {
    super();
    this.url = String(url);
    this.#headers = { ...init.headers };
    void this.#run();
  }

  close(): void {
    this.readyState = CLOSED;
    this.#current?.abort();
  }

  async #run(): Promise<void> {
    while (this.readyState !== CLOSED) {
      const usable = await this.#connect().catch(() => true);
      if (this.readyState === CLOSED) return;
      if (!usable) {
        // Not an event stream (an HTTP error): like `EventSource`, give up.
        this.readyState = CLOSED;
        this.dispatchEvent(new Event('error'));
        return;
      }
      this.readyState = CONNECTING;
      this.dispatchEvent(new Event('error'));
      await new Promise((resolve) => setTimeout(resolve, this.#retryMs));
    }
  }

  /** Reads one connection to its end; `false` when the answer was not an event stream. */
  async #connect(): Promise<boolean> {
    const headers: Record<string, string> = {
      Accept: 'text/event-stream',
      ...this.#headers,
    };
    if (this.#lastEventId !== '') headers['Last-Event-ID'] = this.#lastEventId;
    const controller = new AbortController();
    this.#current = controller;
    const response = await fetch(this.url, {
      headers,
      cache: 'no-store',
      signal: controller.signal,
    });
    const type = response.headers.get('content-type') ?? '';
    if (!response.ok || !type.startsWith('text/event-stream')) {
      await response.body?.cancel();
      return false;
    }
    if (this.readyState === CLOSED || response.body === null) return true;
    this.readyState = OPEN;
    this.dispatchEvent(new Event('open'));
    const parser = createParser({
      onEvent: (message) => {
        if (message.id !== undefined) this.#lastEventId = message.id;
        if (this.readyState === CLOSED) return;
        this.dispatchEvent(
          new MessageEvent(message.event ?? 'message', {
            data: message.data,
            lastEventId: this.#lastEventId,
            origin: new URL(this.url).origin,
          }),
        );
      },
      onRetry: (ms) => {
        this.#retryMs = ms;
      },
      maxBufferSize: MAX_EVENT_BYTES,
      // A malformed or endless event: drop the connection and reconnect.
      onError: () => controller.abort(),
    });
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done || this.readyState === CLOSED) return true;
        parser.feed(decoder.decode(value, { stream: true }));
      }
    } finally {
      reader.releaseLock();
    }
  }
}
