import type pg from 'pg';

/**
 * Tells the other instances that the log has grown: a `NOTIFY` without payload, sent on its own after
 * the write committed, never inside the writing transaction. (A transaction that notifies takes a lock
 * on the database's notification queue at commit, so notifying commits would run one at a time across
 * the database.) Listeners read the log after their own position (`ConfigRepository.readLog`); nothing
 * they learn comes from the notification, so it only has to arrive, not to be in step with the log.
 *
 * Wake-ups coalesce: while one `NOTIFY` is on its way, later calls send one more after it, not one
 * each. A failed `NOTIFY` is dropped (the next write sends another; a listener that reconnects reads the
 * log at once).
 */
export function createWaker(
  pool: pg.Pool,
  channel: string,
  isClosed: () => boolean,
): () => void {
  let sending = false;
  let again = false;
  const send = (): void => {
    sending = true;
    again = false;
    pool.query(`NOTIFY ${channel}`).then(
      () => done(),
      () => done(),
    );
  };
  const done = (): void => {
    sending = false;
    if (again && !isClosed()) send();
  };
  return () => {
    if (isClosed()) return;
    if (sending) again = true;
    else send();
  };
}
