import type pg from 'pg';
import { stampOfRow } from '../config-write.js';
import type { StoredStamp } from '../config-write.js';
import { tipOfRow } from '../log/history-rows.js';
import type { HistoryTip } from '../log/revision-write.js';

/** A stored row's timestamps and version, as PostgreSQL returns them. */
export interface StampRow {
  created_at: string;
  updated_at: string;
  version: string;
}

/** The stored row (if any) and the newest revision (if any) of a name, read once the lock is held. */
interface LockRow {
  created_at: string | null;
  updated_at: string | null;
  version: string | null;
  rev: string | null;
  id: string | null;
  op: HistoryTip['op'] | null;
  base: string | null;
  chain: string | null;
  links: string | number | null;
  json: string | null;
}

/** A write transaction's view once it holds the revision lock. */
export interface Locked {
  readonly client: pg.PoolClient;
  /** The name the write is about. */
  readonly name: string;
  /** The revision this write takes (the counter, already incremented). */
  readonly revision: number;
  readonly stored: StoredStamp | null;
  /** The newest revision of the name (`revision-write.ts`), or `null`. */
  readonly tip: HistoryTip | null;
  /**
   * The stored JSON, read only when the newest revision holds it (a delta can be made against it) or
   * the write asked for it (`needsJson`), and it is not the version the caller holds (`heldVersion`:
   * the write uses the caller's text then).
   */
  readonly json: string | null;
}

/**
 * Opens a write transaction and takes the revision lock (incrementing the counter row), then reads the
 * stored version of `name` in a statement of its own: that statement's snapshot starts after the lock,
 * so it sees every earlier writer's commit. (Read in the same statement as the `UPDATE`, the row would
 * come from a snapshot taken before waiting for the lock.)
 */
export async function lockForWrite(
  pool: pg.Pool,
  target: {
    revision: string;
    table: string;
    revisions: string;
    name: string;
    heldVersion?: number | undefined;
    /** Read the stored text whatever the history needs (an update decides from it). */
    needsJson?: boolean | undefined;
  },
): Promise<Locked> {
  const client = await pool.connect();
  try {
    const results = (await client.query(
      `BEGIN; UPDATE ${target.revision} SET value = value + 1 RETURNING value`,
    )) as unknown as pg.QueryResult<{
      value: string;
    }>[];
    const bumped = results[1]?.rows[0];
    if (bumped === undefined) throw new Error('revision row missing');
    const { rows } = await client.query<LockRow>(
      `SELECT c.created_at, c.updated_at, c.version, t.rev, t.id, t.op, t.base, t.chain, t.links,
         CASE WHEN ($3::boolean OR (t.id = c.version AND t.base IS NOT NULL))
           AND c.version IS DISTINCT FROM $2::bigint THEN c.json END AS json
       FROM (SELECT $1::text AS name) n
       LEFT JOIN ${target.table} c ON c.name = n.name
       LEFT JOIN LATERAL (
         SELECT rev, id, op, base, chain, links FROM ${target.revisions}
         WHERE name = n.name ORDER BY rev DESC LIMIT 1
       ) t ON true`,
      [target.name, target.heldVersion ?? null, target.needsJson === true],
    );
    const row = rows[0];
    if (row === undefined) throw new Error('lock read returned no row');
    return {
      client,
      name: target.name,
      revision: Number(bumped.value),
      stored: row.version === null ? null : stampOfRow(row as StampRow),
      tip:
        row.rev === null
          ? null
          : tipOfRow(row as Parameters<typeof tipOfRow>[0]),
      json: row.json,
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
