import type Database from 'better-sqlite3';
import { KEY_COLUMNS, keyOfRow, rowValues } from '../key-repository.js';
import type { KeyRepository, KeyRow } from '../key-repository.js';

/**
 * Keys in the SQLite file (`access_keys`, sqlite-migrations.ts). Each call is one statement (single
 * autocommit writes, which wait for another process's write lock up to the busy timeout); key writes are
 * rare, so they take no part in the configs' group commit.
 */
export function createSqliteKeys(
  db: Database.Database,
  guard: <T>(fn: () => T) => Promise<T>,
): KeyRepository {
  const placeholders = KEY_COLUMNS.split(',')
    .map(() => '?')
    .join(', ');
  const insert = db.prepare(
    `INSERT INTO access_keys (${KEY_COLUMNS}) VALUES (${placeholders})`,
  );
  const upsert = db.prepare(
    `INSERT OR REPLACE INTO access_keys (${KEY_COLUMNS}) VALUES (${placeholders})`,
  );
  const selectAll = db.prepare<[], KeyRow>(
    `SELECT ${KEY_COLUMNS} FROM access_keys ORDER BY created_at, id`,
  );
  const selectByHash = db.prepare<[string], KeyRow>(
    `SELECT ${KEY_COLUMNS} FROM access_keys WHERE secret_hash = ?`,
  );
  const revoke = db.prepare<[string, string]>(
    'UPDATE access_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?',
  );
  const touch = db.prepare<[string, string]>(
    'UPDATE access_keys SET last_used_at = ? WHERE id = ?',
  );
  const any = db.prepare<[], { n: number }>(
    'SELECT EXISTS (SELECT 1 FROM access_keys) AS n',
  );
  const putAll = db.transaction((rows: readonly unknown[][]) => {
    for (const values of rows) upsert.run(...values);
  });
  return {
    insert: (key) =>
      guard(() => {
        insert.run(...rowValues(key));
      }),
    list: () => guard(() => selectAll.all().map(keyOfRow)),
    findByHash: (hash) =>
      guard(() => {
        const row = selectByHash.get(hash);
        return row === undefined ? null : keyOfRow(row);
      }),
    revoke: (id, at) => guard(() => revoke.run(at, id).changes > 0),
    touch: (id, at) =>
      guard(() => {
        touch.run(at, id);
      }),
    hasAny: () => guard(() => (any.get()?.n ?? 0) > 0),
    putAll: (rows) =>
      guard(() => {
        putAll.immediate(rows.map(rowValues));
      }),
  };
}
