/**
 * The SQLite side of `ConfigRepository.snapshot`: one `SELECT` on a connection of its own. In WAL mode a
 * statement reads one snapshot from its first row to its last, and while it runs writers go on (they
 * append to the WAL; the reader keeps seeing the database as it was). Its own connection, because a
 * connection that is stepping through a statement can run nothing else, and the repository's
 * connection must stay free for writes.
 */
import Database from 'better-sqlite3';
import type { StoredConfig } from './config-repository.js';
import { stampOfRow } from './config-write.js';
import type { ConfigRow } from './sqlite-statements.js';

const SELECT_ALL =
  'SELECT name, json, created_at, updated_at, version FROM configs ORDER BY name';

const toStored = (row: ConfigRow): StoredConfig => ({
  name: row.name,
  json: row.json,
  ...stampOfRow(row),
});

/**
 * Every config of the database at `path`, in name order (SQLite compares text byte by byte: UTF-8 byte
 * order is code-point order). `fallback` is the repository's own connection, used only for a
 * `:memory:` database, which no second connection can open: its rows are read at once.
 */
export async function* sqliteSnapshot(
  path: string,
  fallback: Database.Database,
  busyTimeoutMs: number,
): AsyncGenerator<StoredConfig> {
  if (path === ':memory:' || path === '') {
    yield* fallback.prepare<[], ConfigRow>(SELECT_ALL).all().map(toStored);
    return;
  }
  const reader = new Database(path, { readonly: true, fileMustExist: true });
  try {
    reader.pragma(`busy_timeout = ${busyTimeoutMs}`);
    for (const row of reader.prepare<[], ConfigRow>(SELECT_ALL).iterate()) {
      yield toStored(row);
    }
  } finally {
    reader.close();
  }
}
