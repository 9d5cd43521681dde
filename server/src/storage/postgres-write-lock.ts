import type pg from 'pg';
import { stampOfRow } from './config-write.js';
import type { StoredStamp } from './config-write.js';

/** A stored row's timestamps and version, as PostgreSQL returns them. */
export interface StampRow {
  created_at: string;
  updated_at: string;
  version: string;
}

/** A write transaction's view once it holds the revision lock. */
export interface Locked {
  readonly client: pg.PoolClient;
  /** The name the write is about. */
  readonly name: string;
  /** The revision this write takes (the counter, already incremented). */
  readonly revision: number;
  readonly prunedThrough: number;
  readonly stored: StoredStamp | null;
}

/**
 * Opens a write transaction and takes the revision lock (incrementing the counter row), then reads the
 * stored version of `name` in a statement of its own: that statement's snapshot starts after the lock,
 * so it sees every earlier writer's commit. (Read in the same statement as the `UPDATE`, the row would
 * come from a snapshot taken before waiting for the lock.)
 */
export async function lockForWrite(
  pool: pg.Pool,
  target: { revision: string; table: string; name: string },
): Promise<Locked> {
  const client = await pool.connect();
  try {
    const results = (await client.query(
      `BEGIN; UPDATE ${target.revision} SET value = value + 1 RETURNING value, pruned_through`,
    )) as unknown as pg.QueryResult<{
      value: string;
      pruned_through: string;
    }>[];
    const bumped = results[1]?.rows[0];
    if (bumped === undefined) throw new Error('revision row missing');
    const { rows } = await client.query<StampRow>(
      `SELECT created_at, updated_at, version FROM ${target.table} WHERE name = $1`,
      [target.name],
    );
    const row = rows[0];
    return {
      client,
      name: target.name,
      revision: Number(bumped.value),
      prunedThrough: Number(bumped.pruned_through),
      stored: row === undefined ? null : stampOfRow(row),
    };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    client.release();
    throw error;
  }
}

/** Ends a transaction opened by {@link lockForWrite}, committing or rolling back, and returns the client. */
export async function finishWrite(
  locked: Locked,
  commit: boolean,
): Promise<void> {
  try {
    await locked.client.query(commit ? 'COMMIT' : 'ROLLBACK');
  } finally {
    locked.client.release();
  }
}
