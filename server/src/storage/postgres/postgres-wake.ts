import pg from 'pg';

/** Options of {@link createWaker}. */
export interface WakerOptions {
  readonly connectionString: string;
  readonly channel: string;
  readonly isClosed: () => boolean;
}

/**
 * Tells the other instances that the log has grown: a `NOTIFY` without payload, sent on its own after
 * the write committed, never inside the writing transaction. (A transaction that notifies takes a lock
 * on the database's notification queue at commit, so notifying commits would run one at a time across
 * the database.) Listeners read the log after their own position (`ConfigRepository.readLog`); nothing
 * they learn comes from the notification, so it only has to arrive, not to be in step with the log.
 *
 * The `NOTIFY` goes over a connection of its own, opened on the first write and kept: sent through the
 * writers' pool, it waited behind their transactions for a connection (tens of milliseconds with eight
 * writers) and took one from them. Wake-ups coalesce: while one `NOTIFY` is on its way, later calls send
 * one more after it, not one each. A failed `NOTIFY` drops the connection (the next wake-up opens
 * another); a listener that reconnects reads the log at once, so a lost wake-up delays, never loses.
 */
export function createWaker(options: WakerOptions): {
  wake(): void;
  close(): Promise<void>;
} {
  let client: pg.Client | undefined;
  let sending = false;
  let again = false;

  const connected = async (): Promise<pg.Client> => {
    if (client !== undefined) return client;
    const next = new pg.Client({
      connectionString: options.connectionString,
      keepAlive: true,
    });
    next.on('error', () => {
      if (client === next) client = undefined;
    });
    await next.connect();
    client = next;
    return next;
  };
  const drop = (): void => {
    const current = client;
    client = undefined;
    if (current !== undefined) void current.end().catch(() => undefined);
  };
  const send = async (): Promise<void> => {
    sending = true;
    again = false;
    try {
      const c = await connected();
      if (options.isClosed()) drop();
      else await c.query(`NOTIFY ${options.channel}`);
    } catch {
      drop();
    }
    sending = false;
    if (again && !options.isClosed()) void send();
  };
  return {
    wake: () => {
      if (options.isClosed()) return;
      if (sending) again = true;
      else void send();
    },
    close: async () => {
      const current = client;
      client = undefined;
      if (current !== undefined) await current.end().catch(() => undefined);
    },
  };
}
