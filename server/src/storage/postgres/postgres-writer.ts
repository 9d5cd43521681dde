import type pg from 'pg';
import type { WriteTransaction } from '../config-write.js';
import { stageWrite } from './postgres-staged-write.js';
import type { WriteTargets } from './postgres-staged-write.js';
import { finishWrite, lockForWrite } from './postgres-write-lock.js';

/** What a write may do besides the algorithm's steps: stage a statement of its own, read under the lock. */
export interface WriteExtras {
  /** Stages a data-modifying statement sent with the write's rows (see `stageWrite`). */
  readonly step: (build: (param: (value: unknown) => string) => string) => void;
  /** What `read.prepare` read under the lock (`undefined` without it). */
  readonly prepared: unknown;
}

/** One write of the adapter (see {@link createPostgresWriter}). */
export type PostgresWrite = <R>(
  name: string,
  write: (tx: WriteTransaction, extras: WriteExtras) => R,
  read?: {
    readonly heldVersion?: number | undefined;
    readonly needsJson?: boolean;
    /** Reads what the write decides from, in its transaction once the lock is held. */
    readonly prepare?: (client: pg.PoolClient) => Promise<unknown>;
  },
) => Promise<R>;

/** Options of {@link createPostgresWriter}. */
export interface WriterOptions {
  readonly pool: pg.Pool;
  readonly targets: WriteTargets;
  readonly isClosed: () => boolean;
  /** Called once a write has committed (outside its transaction). */
  readonly onCommit: () => void;
}

/**
 * Runs writes of the PostgreSQL adapter: each takes the revision lock and the stored row of its name
 * ({@link lockForWrite}; its text only when the caller does not hold that version, `heldVersion`, and
 * the history or an update, `needsJson`, reads it), runs `write` (the algorithm of `config-write.ts`) on
 * the staged steps, sends what it staged (the row and the revision, which is the log) as one statement,
 * and commits; or rolls back when nothing was appended (a refused write, the delete of a missing name).
 * Nothing is notified inside the transaction (see `postgres-wake.ts`).
 */
export function createPostgresWriter(options: WriterOptions): PostgresWrite {
  const { pool, targets } = options;
  return async (name, write, read = {}) => {
    if (options.isClosed()) throw new Error('repository is closed');
    const locked = await lockForWrite(pool, {
      ...targets,
      name,
      heldVersion: read.heldVersion,
      needsJson: read.needsJson === true,
    });
    let commit = false;
    try {
      const stage = stageWrite(locked, targets);
      const prepared = await read.prepare?.(locked.client);
      const result = write(stage.tx, { step: stage.step, prepared });
      const staged = stage.staged();
      if (staged !== null) {
        await locked.client.query(staged);
        commit = true;
      }
      return result;
    } finally {
      await finishWrite(locked, commit);
      if (commit) options.onCommit();
    }
  };
}
