import pg from 'pg';

const quoteIdent = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/** Options of {@link createListener}. */
export interface ListenerOptions {
  readonly connectionString: string;
  readonly channel: string;
  readonly reconnectMs: number;
  /** Called on every notification, and after every (re)connection: changes may have been missed. */
  readonly onWake: () => void;
}

/**
 * A dedicated connection that `LISTEN`s on the channel while started. A lost connection is opened again
 * with backoff; each successful (re)connection wakes the watchers, who then catch up from the changes
 * table, so nothing committed while the connection was down is missed.
 */
export function createListener(options: ListenerOptions): {
  start(): void;
  stop(): void;
} {
  let running = false;
  let client: pg.Client | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let delay = options.reconnectMs;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({
      connectionString: options.connectionString,
      keepAlive: true,
    });
    client = next;
    const lost = (): void => {
      if (client !== next) return;
      client = undefined;
      next.removeAllListeners('notification');
      void next.end().catch(() => undefined);
      schedule();
    };
    next.on('error', lost);
    next.on('end', lost);
    next.on('notification', (message) => {
      if (message.channel === options.channel) options.onWake();
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${quoteIdent(options.channel)}`);
    } catch {
      lost();
      return;
    }
    if (client !== next) return;
    delay = options.reconnectMs;
    options.onWake();
  };
  function schedule(): void {
    if (!running || timer !== undefined) return;
    timer = setTimeout(() => {
      timer = undefined;
      if (running) void connect();
    }, delay);
    timer.unref();
    delay = Math.min(delay * 2, 5000);
  }

  return {
    start: () => {
      if (running) return;
      running = true;
      void connect();
    },
    stop: () => {
      running = false;
      clearTimeout(timer);
      timer = undefined;
      const current = client;
      client = undefined;
      if (current !== undefined) void current.end().catch(() => undefined);
    },
  };
}
