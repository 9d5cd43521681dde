/**
 * The PostgreSQL side of `ConfigRepository.snapshot`: one `REPEATABLE READ READ ONLY` transaction on a
 * connection of its own, so every page of rows comes from the snapshot its first query took, while
 * writers on other connections go on. Pages follow the name (keyset), in `"C"` collation: byte order of
 * UTF-8, which is code-point order.
 */
import type pg from 'pg';
import type { StoredConfig } from './config-repository.js';
import { stampOfRow } from './config-write.js';
import type { StampRow } from './postgres-write-lock.js';

/** Rows per page: a few megabytes of JSON at most for configs of a few hundred links. */
const PAGE_ROWS = 50;

export async function* postgresSnapshot(
  pool: pg.Pool,
  table: string,
): AsyncGenerator<StoredConfig> {
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
          `SELECT name, json, created_at, updated_at, version FROM ${table}
           WHERE $1::text IS NULL OR name COLLATE "C" > $1::text COLLATE "C"
           ORDER BY name COLLATE "C" LIMIT ${PAGE_ROWS}`,
          [after],
        );
      for (const row of rows) {
        yield { name: row.name, json: row.json, ...stampOfRow(row) };
      }
      const last = rows.at(-1);
      if (last === undefined || rows.length < PAGE_ROWS) break;
      after = last.name;
    }
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
