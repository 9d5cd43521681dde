/**
 * The PostgreSQL side of `ConfigRepository.snapshot`: one `REPEATABLE READ READ ONLY` transaction on a
 * connection of its own, so every page of configs, publish records, revisions and keys comes from the
 * snapshot its first query took, while writers on other connections go on. Pages follow the key
 * (keyset), names in `"C"` collation: byte order of UTF-8, which is code-point order.
 */
import type pg from 'pg';
import type { SnapshotItem } from '../config-repository.js';
import { stampOfRow } from '../config-write.js';
import { ROW_COLUMNS, recordOfRow } from '../log/history-rows.js';
import type { RevisionRow } from '../log/history-rows.js';
import { KEY_COLUMNS, keyOfRow } from '../key-repository.js';
import type { KeyRow } from '../key-repository.js';
import type { StampRow } from './postgres-write-lock.js';
import { postgresPublishItems } from './postgres-publish-rows.js';

/** Rows per page: a few megabytes of JSON at most for configs of a few hundred links. */
const PAGE_ROWS = 50;
/** Revisions per page: mostly deltas of a few hundred bytes. */
const REVISION_PAGE_ROWS = 500;

/** The tables a snapshot reads. */
export interface SnapshotTables {
  readonly table: string;
  readonly revisions: string;
  readonly keys: string;
  /** The publish records. */
  readonly published: string;
}

export async function* postgresSnapshot(
  pool: pg.Pool,
  tables: SnapshotTables,
): AsyncGenerator<SnapshotItem> {
  const client = await pool.connect();
  /** Whether the transaction ended well; a reader that stops early or an error leaves it to roll back. */
  let committed = false;
  let broken = false;
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    let after: string | null = null;
    for (;;) {
      const {
        rows,
      }: pg.QueryResult<StampRow & { name: string; json: string }> =
        await client.query(
          `SELECT name, json, created_at, updated_at, version FROM ${tables.table}
           WHERE $1::text IS NULL OR name COLLATE "C" > $1::text COLLATE "C"
           ORDER BY name COLLATE "C" LIMIT ${PAGE_ROWS}`,
          [after],
        );
      for (const row of rows) {
        const config = { name: row.name, json: row.json, ...stampOfRow(row) };
        yield { kind: 'config', config };
      }
      const last = rows.at(-1);
      if (last === undefined || rows.length < PAGE_ROWS) break;
      after = last.name;
    }
    yield* postgresPublishItems(client, tables.published);
    let from = null as { name: string; rev: number } | null;
    for (;;) {
      const { rows }: pg.QueryResult<RevisionRow> = await client.query(
        `SELECT ${ROW_COLUMNS} FROM ${tables.revisions}
         WHERE $1::text IS NULL OR (name COLLATE "C", rev) > ($1::text COLLATE "C", $2::integer)
         ORDER BY name COLLATE "C", rev LIMIT ${REVISION_PAGE_ROWS}`,
        [from?.name ?? null, from?.rev ?? 0],
      );
      for (const row of rows) {
        yield { kind: 'revision', revision: recordOfRow(row) };
      }
      const last = rows.at(-1);
      if (last === undefined || rows.length < REVISION_PAGE_ROWS) break;
      from = { name: last.name, rev: Number(last.rev) };
    }
    const { rows: keys }: pg.QueryResult<KeyRow> = await client.query(
      `SELECT ${KEY_COLUMNS} FROM ${tables.keys} ORDER BY created_at, id`,
    );
    for (const row of keys) yield { kind: 'key', key: keyOfRow(row) };
    await client.query('COMMIT');
    committed = true;
  } finally {
    if (!committed) {
      await client.query('ROLLBACK').catch(() => {
        broken = true;
      });
    }
    client.release(broken);
  }
}
