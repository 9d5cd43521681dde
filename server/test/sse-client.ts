import { EventSource } from 'eventsource';
import { pino } from 'pino';
import { startServer } from '../src/start-server.js';
import type { RunningServer, StartOptions } from '../src/start-server.js';

/** One received server-sent event. */
export interface ReceivedEvent {
  readonly type: string;
  readonly id: string;
  readonly data: string;
}

/** An `EventSource` on a URL that records `change` and `reset` events. */
export interface Listener {
  readonly events: ReceivedEvent[];
  readonly source: EventSource;
  /** Resolves once the stream is open. */
  readonly opened: Promise<void>;
  close(): void;
}

/** Opens an `EventSource` (the `eventsource` package, with extra request headers) and records events. */
export function listen(
  url: string,
  headers: Record<string, string> = {},
): Listener {
  const source = new EventSource(url, {
    fetch: (input, init) =>
      fetch(input, { ...init, headers: { ...init?.headers, ...headers } }),
  });
  const events: ReceivedEvent[] = [];
  for (const type of ['change', 'reset']) {
    source.addEventListener(type, (event) => {
      events.push({ type, id: event.lastEventId, data: event.data });
    });
  }
  const opened = new Promise<void>((resolve, reject) => {
    source.addEventListener('open', () => resolve(), { once: true });
    source.addEventListener(
      'error',
      (event) => reject(new Error(event.message ?? 'stream failed')),
      {
        once: true,
      },
    );
  });
  return { events, source, opened, close: () => source.close() };
}

/**
 * Reads a stream's raw text with `fetch` until `done` holds for it (or the stream ends), then hangs up.
 */
export async function readStream(
  url: string,
  options: {
    headers?: Record<string, string>;
    done: (text: string) => boolean;
  },
): Promise<{ status: number; headers: Headers; text: string }> {
  const abort = new AbortController();
  const response = await fetch(url, {
    headers: options.headers ?? {},
    signal: abort.signal,
  });
  let text = '';
  if (response.body !== null && response.status === 200) {
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    while (!options.done(text)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } else {
    text = await response.text();
  }
  abort.abort();
  return { status: response.status, headers: response.headers, text };
}

/** A server on a free loopback port, unseeded and with a silent log; `options` add to or override that. */
export function quietServer(
  options: Partial<StartOptions> = {},
): Promise<RunningServer> {
  return startServer({
    port: 0,
    host: '127.0.0.1',
    seed: 'none',
    logger: pino({ level: 'silent' }),
    ...options,
  });
}
