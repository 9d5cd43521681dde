import type pg from 'pg';
import type { HistoryLimits } from '../config-repository.js';
import type { WriteTransaction } from '../config-write.js';
import { createPostgresPruning } from './postgres-pruning.js';
import { stageWrite } from './postgres-staged-write.js';
import type { WriteTargets } from './postgres-staged-write.js';
import { finishWrite, lockForWrite } from './postgres-write-lock.js';

/** Options of {@link createPostgresWriter}. */
export interface WriterOptions {
  readonly pool: pg.Pool;
  readonly targets: WriteTargets;
  readonly limits: Required<HistoryLimits>;
  readonly isClosed: () => boolean;
  /** Called once a write has committed. */
  readonly onCommit: () => void;
}

/**
 * Runs writes of the PostgreSQL adapter: each takes the revision lock and the stored row of its name
 * ({@link lockForWrite}; its text only when the caller does not hold that version: `heldVersion`), runs `write` (the algorithm of `config-write.ts`) on the staged steps, sends what
 * it staged as one statement with the pruning of the history, and commits; or rolls back when nothing was
 * appended (a refused write, the delete of a missing name).
 */
export function createPostgresWriter(
  options: WriterOptions,
): <R>(
  name: string,
  write: (tx: WriteTransaction) => R,
  heldVersion?: number,
) => Promise<R> {
  const { pool, targets } = options;
  const pruneMark = createPostgresPruning(targets.changes, options.limits);
  return async (name, write, heldVersion) => {
    if (options.isClosed()) throw new Error('repository is closed');
    const locked = await lockForWrite(pool, { ...targets, name, heldVersion });
    let commit = false;
    try {
      const stage = stageWrite(locked, targets);
      const result = write(stage.tx);
      const staged = stage.staged();
      if (staged !== null) {
        const through = await pruneMark(locked, staged.at);
        await locked.client.query(staged.statement(through));
        commit = true;
      }
      return result;
    } finally {
      await finishWrite(locked, commit);
      if (commit) options.onCommit();
    }
  };
}
