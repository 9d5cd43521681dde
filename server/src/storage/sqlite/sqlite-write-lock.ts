import Database from 'better-sqlite3';
import type { SqliteStatements } from './sqlite-statements.js';

/** Options of {@link createWriteLock}. */
export interface WriteLockOptions {
  readonly statements: Pick<SqliteStatements, 'noBusyWait' | 'busyWait'>;
  /** How long to wait for another process's write lock before failing, in ms. */
  readonly busyTimeoutMs: number;
  readonly isClosed: () => boolean;
}

/**
 * Runs a `BEGIN IMMEDIATE` transaction (`run`), waiting while another process holds the write lock.
 * SQLite's own busy handler would wait by sleeping in this thread, stalling every request of the process
 * (and in steps that grow to 100 ms); instead, a busy `BEGIN` fails at once and is tried again after a
 * short timer, so the process keeps serving reads meanwhile and takes the lock soon after it is free.
 */
export function createWriteLock(
  options: WriteLockOptions,
): <T>(run: () => T) => Promise<T> {
  const { statements, busyTimeoutMs, isClosed } = options;
  return async (run) => {
    const started = Date.now();
    for (let attempt = 0; ; attempt++) {
      if (isClosed()) throw new Error('repository is closed');
      statements.noBusyWait.run();
      try {
        return run();
      } catch (error) {
        const busy =
          error instanceof Database.SqliteError && error.code === 'SQLITE_BUSY';
        if (!busy || Date.now() - started >= busyTimeoutMs) throw error;
      } finally {
        statements.busyWait.run();
      }
      // 1 ms at first, up to 8 ms, jittered so two waiting processes do not retry in step.
      const delay = Math.min(1 + attempt / 4, 8) * (0.5 + Math.random());
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  };
}
