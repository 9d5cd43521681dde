import type Database from 'better-sqlite3';
import { META_COLUMNS } from '../log/history-rows.js';
import type { LogRow } from '../log/history-rows.js';

/** A row of `configs`. */
export interface ConfigRow {
  name: string;
  json: string;
  created_at: string;
  updated_at: string;
  version: number;
}

type Statement<P extends unknown[], R = unknown> = Database.Statement<P, R>;

/** Every statement the SQLite adapter runs, prepared once per connection. */
export interface SqliteStatements {
  readonly selectNames: Statement<[], { name: string }>;
  readonly selectVersions: Statement<[], { name: string; version: number }>;
  readonly selectOne: Statement<[string], ConfigRow>;
  readonly selectVersion: Statement<[string], { version: number }>;
  readonly countAll: Statement<[], { n: number }>;
  readonly selectCounter: Statement<[string], number>;
  readonly selectLog: Statement<[number, number, number], LogRow>;
  readonly insertEvent: Statement<
    [number, string, string, number, string | null, string | null, string]
  >;
  readonly selectStamp: Statement<
    [string],
    Pick<ConfigRow, 'created_at' | 'updated_at' | 'version'>
  >;
  readonly bumpRevision: Statement<[], { value: number }>;
  readonly insert: Statement<
    [string, string, string, string, number],
    number | null
  >;
  readonly update: Statement<[string, string, number, string], number | null>;
  /**
   * `insert` and `update` with the text bound as its UTF-8 bytes (a blob cast to TEXT, which SQLite reads
   * in the file's text encoding): prepared on a UTF-8 file only, absent on any other.
   */
  readonly utf8?: {
    readonly insert: Statement<
      [string, Uint8Array, string, string, number],
      number | null
    >;
    readonly update: Statement<
      [Uint8Array, string, number, string],
      number | null
    >;
  };
  readonly deleteOne: Statement<[string]>;
  readonly dataVersion: Statement<[], number>;
  readonly noBusyWait: Statement<[]>;
  readonly busyWait: Statement<[]>;
}

/** Prepares the statements of one connection; `busyTimeoutMs` is the wait the write lock restores. */
export function prepareStatements(
  db: Database.Database,
  busyTimeoutMs: number,
): SqliteStatements {
  const utf8File = db.pragma('encoding', { simple: true }) === 'UTF-8';
  const sizeOfJson = utf8File ? 'octet_length(json)' : 'NULL';
  const writes = (value: string) => ({
    insert: `INSERT INTO configs (name, json, created_at, updated_at, version) VALUES (?, ${value}, ?, ?, ?)
         RETURNING ${sizeOfJson}`,
    update: `UPDATE configs SET json = ${value}, updated_at = ?, version = ? WHERE name = ?
         RETURNING ${sizeOfJson}`,
  });
  const text = writes('?');
  const bytes = writes('CAST(? AS TEXT)');
  return {
    // Reads.
    selectNames: db.prepare<[], { name: string }>('SELECT name FROM configs'),
    selectVersions: db.prepare<[], { name: string; version: number }>(
      'SELECT name, version FROM configs',
    ),
    selectOne: db.prepare<[string], ConfigRow>(
      'SELECT name, json, created_at, updated_at, version FROM configs WHERE name = ?',
    ),
    selectVersion: db.prepare<[string], { version: number }>(
      'SELECT version FROM configs WHERE name = ?',
    ),
    countAll: db.prepare<[], { n: number }>(
      'SELECT COUNT(*) AS n FROM configs',
    ),
    selectCounter: db
      .prepare<[string], number>('SELECT value FROM counters WHERE key = ?')
      .pluck(),
    // The log: the revisions and the other entries, in change-id order (each table's rowid).
    selectLog: db.prepare<[number, number, number], LogRow>(
      `SELECT ${META_COLUMNS}, NULL AS detail FROM revisions WHERE id > ?
       UNION ALL
       SELECT id, name, 0 AS rev, type AS op, at, by, request_id, NULL AS size, detail
       FROM log_events WHERE id > ?
       ORDER BY id LIMIT ?`,
    ),
    insertEvent: db.prepare<
      [number, string, string, number, string | null, string | null, string]
    >(
      'INSERT INTO log_events (id, name, type, at, by, request_id, detail) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ),
    // Writes.
    selectStamp: db.prepare<
      [string],
      Pick<ConfigRow, 'created_at' | 'updated_at' | 'version'>
    >('SELECT created_at, updated_at, version FROM configs WHERE name = ?'),
    bumpRevision: db.prepare<[], { value: number }>(
      "UPDATE counters SET value = value + 1 WHERE key = 'version' RETURNING value",
    ),
    // Each gives the text's size in UTF-8 bytes as SQLite holds it (`octet_length` reads the size the
    // value carries, not its bytes), so the revision does not encode the text again to count them
    // (`revision-write.ts`). It counts in the file's text encoding: a file made elsewhere as UTF-16 gives
    // null, and the size is counted as before.
    insert: db
      .prepare<[string, string, string, string, number], number | null>(
        text.insert,
      )
      .pluck(),
    update: db
      .prepare<[string, string, number, string], number | null>(text.update)
      .pluck(),
    // The bytes as they came (a request's body): better-sqlite3 would encode a bound string to UTF-8 again.
    ...(utf8File && {
      utf8: {
        insert: db
          .prepare<[string, Uint8Array, string, string, number], number | null>(
            bytes.insert,
          )
          .pluck(),
        update: db
          .prepare<[Uint8Array, string, number, string], number | null>(
            bytes.update,
          )
          .pluck(),
      },
    }),
    deleteOne: db.prepare<[string]>('DELETE FROM configs WHERE name = ?'),
    // Watching and the write lock.
    dataVersion: db.prepare<[], number>('PRAGMA data_version').pluck(),
    noBusyWait: db.prepare('PRAGMA busy_timeout = 0'),
    busyWait: db.prepare(`PRAGMA busy_timeout = ${busyTimeoutMs}`),
  };
}
