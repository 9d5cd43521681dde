/**
 * The PostgreSQL side of `ConfigRepository.restoreRows`: the rows of a backup (configs, revisions,
 * publish records) written as they are, in one transaction that first takes the revision row's lock (so
 * it is serialized with every write, as writes are among themselves), then raises the counter and the
 * feed's pruned mark to the highest id written.
 */
import type pg from 'pg';
import type { RestoreRows } from '../config-repository.js';
import { ROW_COLUMNS, rowValues } from '../log/history-rows.js';
import { highestId } from '../write-rules.js';
import { postgresPublishRestore } from './postgres-publish-rows.js';

/** The tables a restore writes. */
export interface RestoreTables {
  readonly table: string;
  readonly revision: string;
  readonly revisions: string;
  readonly events: string;
  /** The publish records. */
  readonly published: string;
}

/** Rows per `INSERT` (well below PostgreSQL's 65,535 parameters per statement). */
const CHUNK = 1000;

/** Inserts `rows` (each its column values) into `table` (`columns`), a chunk per statement. */
async function insertAll(
  client: pg.PoolClient,
  { table, columns }: { readonly table: string; readonly columns: string },
  rows: readonly unknown[][],
): Promise<void> {
  const width = columns.split(',').length;
  for (let at = 0; at < rows.length; at += CHUNK) {
    const chunk = rows.slice(at, at + CHUNK);
    const tuples = chunk.map(
      (_, i) =>
        `(${Array.from({ length: width }, (_, j) => `$${i * width + j + 1}`).join(', ')})`,
    );
    await client.query(
      `INSERT INTO ${table} (${columns}) VALUES ${tuples.join(', ')}`,
      chunk.flat(),
    );
  }
}

/** Writes `rows` (see `ConfigRepository.restoreRows`). */
export async function postgresRestore(
  pool: pg.Pool,
  tables: RestoreTables,
  { rows, replace }: { readonly rows: RestoreRows; readonly replace: boolean },
): Promise<void> {
  const client = await pool.connect();
  let committed = false;
  try {
    await client.query('BEGIN');
    // Both marks from the value before the statement (SET reads the old row): the head, and the log's
    // horizon (the column keeps its old name), so readers from before the restore re-list.
    await client.query(
      `UPDATE ${tables.revision}
       SET value = GREATEST(value, $1), pruned_through = GREATEST(value, $1)`,
      [highestId(rows)],
    );
    if (replace) {
      await client.query(`DELETE FROM ${tables.table}`);
      await client.query(`DELETE FROM ${tables.revisions}`);
      await client.query(`DELETE FROM ${tables.events}`);
    }
    await insertAll(
      client,
      {
        table: tables.table,
        columns: 'name, json, created_at, updated_at, version',
      },
      rows.configs.map((c) => [
        c.name,
        c.json,
        c.createdAt,
        c.updatedAt,
        c.version,
      ]),
    );
    await insertAll(
      client,
      { table: tables.revisions, columns: ROW_COLUMNS },
      rows.revisions.map(rowValues),
    );
    await postgresPublishRestore(client, tables.published, {
      records: rows.published ?? [],
      replace,
    });
    await client.query('COMMIT');
    committed = true;
  } finally {
    if (!committed) await client.query('ROLLBACK').catch(() => undefined);
    client.release();
  }
}
