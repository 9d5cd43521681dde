/**
 * Publish records in snapshots and restores of PostgreSQL (`linkconfig_published`): read on the
 * snapshot's connection inside its `REPEATABLE READ` transaction, written on the restore's connection
 * inside its transaction, so they agree with the configs and revisions around them.
 */
import type pg from 'pg';
import type { SnapshotItem } from '../config-repository.js';
import {
  PUBLISH_COLUMNS,
  publishOfRow,
  publishValues,
} from '../publish-store.js';
import type { PublishRow, StoredPublish } from '../publish-store.js';

/** Records per page: each holds a config's text, as a page of configs does. */
const PAGE_ROWS = 50;

/** Every publish record of `table`, by name in code-point order (`"C"` collation), a page at a time. */
export async function* postgresPublishItems(
  client: pg.PoolClient,
  table: string,
): AsyncGenerator<SnapshotItem> {
  let after: string | null = null;
  for (;;) {
    const { rows }: pg.QueryResult<PublishRow> = await client.query(
      `SELECT ${PUBLISH_COLUMNS} FROM ${table}
       WHERE $1::text IS NULL OR name COLLATE "C" > $1::text COLLATE "C"
       ORDER BY name COLLATE "C" LIMIT ${PAGE_ROWS}`,
      [after],
    );
    for (const row of rows)
      yield { kind: 'publish', publish: publishOfRow(row) };
    const last = rows.at(-1);
    if (last === undefined || rows.length < PAGE_ROWS) return;
    after = last.name;
  }
}

/**
 * Writes `records` into `table` as they are, one statement each (few rows, each a config's text), after
 * removing every record with `replace`. A name that has a record already fails the statement, and with it
 * the caller's transaction.
 */
export async function postgresPublishRestore(
  client: pg.PoolClient,
  table: string,
  {
    records,
    replace,
  }: { readonly records: readonly StoredPublish[]; readonly replace: boolean },
): Promise<void> {
  if (replace) await client.query(`DELETE FROM ${table}`);
  const placeholders = PUBLISH_COLUMNS.split(',')
    .map((_, i) => `$${i + 1}`)
    .join(', ');
  for (const record of records) {
    await client.query(
      `INSERT INTO ${table} (${PUBLISH_COLUMNS}) VALUES (${placeholders})`,
      publishValues(record),
    );
  }
}
