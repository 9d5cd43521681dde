import type pg from 'pg';
import { KEY_COLUMNS, keyOfRow, rowValues } from '../key-repository.js';
import { inMigration } from './postgres-migrate.js';
import type { KeyRepository, KeyRow } from '../key-repository.js';

/** Runs one query on the repository's pool (rejects once the repository is closed). */
type Query = <R extends pg.QueryResultRow>(
  text: string,
  values?: unknown[],
) => Promise<pg.QueryResult<R>>;

/**
 * The keys table's migration, a step of its own after the configs' (`postgres-migrate.ts`), under the same
 * advisory lock, so concurrent first starts of several instances do not race.
 */
export async function migrateKeys(pool: pg.Pool, table: string): Promise<void> {
  await inMigration(pool, async (client) => {
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${table} (
         id text PRIMARY KEY COLLATE "C",
         label text NOT NULL,
         scope text NOT NULL,
         configs text NOT NULL,
         secret_hash text NOT NULL UNIQUE,
         expires_at text,
         created_at text NOT NULL,
         last_used_at text,
         revoked_at text
       )`,
    );
  });
}

const params = (count: number, from = 1): string =>
  Array.from({ length: count }, (_, i) => `$${i + from}`).join(', ');

/** Keys in PostgreSQL (`linkconfig_keys` of the repository's schema); each call is one statement. */
export function createPostgresKeys(query: Query, table: string): KeyRepository {
  const columns = KEY_COLUMNS.split(',').length;
  return {
    insert: async (key) => {
      await query(
        `INSERT INTO ${table} (${KEY_COLUMNS}) VALUES (${params(columns)})`,
        rowValues(key),
      );
    },
    list: async () =>
      (
        await query<KeyRow>(
          `SELECT ${KEY_COLUMNS} FROM ${table} ORDER BY created_at, id`,
        )
      ).rows.map(keyOfRow),
    findByHash: async (hash) => {
      const { rows } = await query<KeyRow>(
        `SELECT ${KEY_COLUMNS} FROM ${table} WHERE secret_hash = $1`,
        [hash],
      );
      return rows[0] === undefined ? null : keyOfRow(rows[0]);
    },
    revoke: async (id, at) =>
      (
        await query(
          `UPDATE ${table} SET revoked_at = COALESCE(revoked_at, $1) WHERE id = $2`,
          [at, id],
        )
      ).rowCount !== 0,
    touch: async (id, at) => {
      await query(`UPDATE ${table} SET last_used_at = $1 WHERE id = $2`, [
        at,
        id,
      ]);
    },
    hasAny: async () =>
      (await query(`SELECT 1 FROM ${table} LIMIT 1`)).rows.length > 0,
    putAll: async (rows) => {
      if (rows.length === 0) return;
      // One statement: all rows or none.
      const values = rows.flatMap(rowValues);
      const tuples = rows
        .map((_, i) => `(${params(columns, i * columns + 1)})`)
        .join(', ');
      const updates = KEY_COLUMNS.split(',')
        .map((c) => c.trim())
        .filter((c) => c !== 'id')
        .map((c) => `${c} = EXCLUDED.${c}`)
        .join(', ');
      await query(
        `INSERT INTO ${table} (${KEY_COLUMNS}) VALUES ${tuples} ON CONFLICT (id) DO UPDATE SET ${updates}`,
        values,
      );
    },
  };
}
