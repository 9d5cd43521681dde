/**
 * The SQLite side of `ConfigRepository.snapshot`: one read transaction on a connection of its own. In WAL
 * mode a read transaction sees one snapshot from its first read to its end, and while it runs writers go
 * on (they append to the WAL; the reader keeps seeing the database as it was). Configs, publish records,
 * revisions and keys are read by statements one after the other inside it, so they agree. Its own
 * connection, because a connection that is stepping through a statement can run nothing else, and the
 * repository's connection must stay free for writes.
 */
import Database from 'better-sqlite3';
import type { SnapshotItem } from '../config-repository.js';
import { stampOfRow } from '../config-write.js';
import { ROW_COLUMNS, recordOfRow } from '../log/history-rows.js';
import type { RevisionRow } from '../log/history-rows.js';
import { KEY_COLUMNS, keyOfRow } from '../key-repository.js';
import type { KeyRow } from '../key-repository.js';
import type { ConfigRow } from './sqlite-statements.js';
import { sqlitePublishItems } from './sqlite-publish-rows.js';

const SELECT_CONFIGS =
  'SELECT name, json, created_at, updated_at, version FROM configs ORDER BY name';
const SELECT_REVISIONS = `SELECT ${ROW_COLUMNS} FROM revisions ORDER BY name, rev`;
const SELECT_KEYS = `SELECT ${KEY_COLUMNS} FROM access_keys ORDER BY created_at, id`;

/** The items of one snapshot, read from `db` (which holds the read transaction). */
function* readAll(db: Database.Database): Generator<SnapshotItem> {
  for (const row of db.prepare<[], ConfigRow>(SELECT_CONFIGS).iterate()) {
    const config = { name: row.name, json: row.json, ...stampOfRow(row) };
    yield { kind: 'config', config };
  }
  yield* sqlitePublishItems(db);
  for (const row of db.prepare<[], RevisionRow>(SELECT_REVISIONS).iterate()) {
    yield { kind: 'revision', revision: recordOfRow(row) };
  }
  for (const row of db.prepare<[], KeyRow>(SELECT_KEYS).iterate()) {
    yield { kind: 'key', key: keyOfRow(row) };
  }
}

/**
 * The whole database at `path`, configs in name order (SQLite compares text byte by byte: UTF-8 byte
 * order is code-point order). `fallback` is the repository's own connection, used only for a `:memory:`
 * database, which no second connection can open: its rows are read at once.
 */
export async function* sqliteSnapshot(
  path: string,
  fallback: Database.Database,
  busyTimeoutMs: number,
): AsyncGenerator<SnapshotItem> {
  if (path === ':memory:' || path === '') {
    yield* [...readAll(fallback)];
    return;
  }
  const reader = new Database(path, { readonly: true, fileMustExist: true });
  try {
    reader.pragma(`busy_timeout = ${busyTimeoutMs}`);
    reader.exec('BEGIN');
    yield* readAll(reader);
    reader.exec('COMMIT');
  } finally {
    reader.close();
  }
}
