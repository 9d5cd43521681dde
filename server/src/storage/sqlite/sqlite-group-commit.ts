import type Database from 'better-sqlite3';

/** Options of {@link createGroupCommit}. */
export interface GroupCommitOptions {
  readonly db: Database.Database;
  /** Runs a `BEGIN IMMEDIATE` transaction under the write lock (`sqlite-write-lock.ts`). */
  readonly withWriteLock: <T>(run: () => T) => Promise<T>;
  readonly isClosed: () => boolean;
  /** Told after each commit how many writes it held. */
  readonly onCommit?: ((writes: number) => void) | undefined;
  /** Told after each commit how many of its writes were allowed (`ok`), when there was one or more. */
  readonly onWritten: (writes: number) => void;
}

interface Pending {
  readonly run: () => { ok: boolean };
  readonly resolve: (result: { ok: boolean }) => void;
  readonly reject: (error: unknown) => void;
}

type Outcome = { result: { ok: boolean } } | { error: unknown };

/**
 * Group commit. Writes are queued and run together in the next turn of the event loop, in one
 * `BEGIN IMMEDIATE` transaction, each in its own savepoint (better-sqlite3 nests transaction functions
 * as savepoints), so a write that throws rolls back alone. Writes whose requests arrive while a commit
 * is being made share the next transaction: one fsync (`synchronous=FULL`) for all of them instead of
 * one each. Every write is resolved only after the commit that holds it; none is acknowledged early.
 *
 * Returns the call that queues a write (a synchronous transaction function) and resolves with its result
 * once it is committed.
 */
export function createGroupCommit(
  options: GroupCommitOptions,
): <T extends { ok: boolean }>(run: () => T) => Promise<T> {
  const queue: Pending[] = [];
  let flushing = false;
  const batchTx = options.db.transaction((batch: readonly Pending[]) =>
    batch.map((item): Outcome => {
      try {
        return { result: item.run() };
      } catch (error) {
        return { error };
      }
    }),
  );
  const settle = (batch: readonly Pending[], outcomes: Outcome[]): void => {
    let written = 0;
    outcomes.forEach((outcome, i) => {
      const item = batch[i];
      if (item === undefined) return;
      if ('error' in outcome) item.reject(outcome.error);
      else {
        if (outcome.result.ok) written++;
        item.resolve(outcome.result);
      }
    });
    if (written > 0) options.onWritten(written);
  };
  const flush = async (): Promise<void> => {
    flushing = true;
    try {
      while (queue.length > 0) {
        const batch = queue.splice(0);
        let outcomes: Outcome[];
        try {
          outcomes = await options.withWriteLock(() =>
            batchTx.immediate(batch),
          );
        } catch (error) {
          for (const item of batch) item.reject(error);
          continue;
        }
        options.onCommit?.(batch.length);
        settle(batch, outcomes);
      }
    } finally {
      flushing = false;
    }
  };
  return <T extends { ok: boolean }>(run: () => T): Promise<T> => {
    if (options.isClosed()) {
      return Promise.reject(new Error('repository is closed'));
    }
    return new Promise<T>((resolve, reject) => {
      queue.push({
        run,
        resolve: resolve as (result: { ok: boolean }) => void,
        reject,
      });
      if (!flushing && queue.length === 1) {
        flushing = true;
        setImmediate(() => void flush());
      }
    });
  };
}
