import type Database from 'better-sqlite3';
import type { Change } from '../config-repository.js';

/** A row of `configs`. */
export interface ConfigRow {
  name: string;
  json: string;
  created_at: string;
  updated_at: string;
  version: number;
}

/** A row of `changes`. */
export interface ChangeRow {
  id: number;
  name: string;
  op: Change['op'];
  etag: string | null;
  updated_at: string;
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
  readonly selectChanges: Statement<[number, number], ChangeRow>;
  readonly selectStamp: Statement<
    [string],
    Pick<ConfigRow, 'created_at' | 'updated_at' | 'version'>
  >;
  readonly bumpRevision: Statement<[], { value: number }>;
  readonly insert: Statement<[string, string, string, string, number]>;
  readonly update: Statement<[string, string, number, string]>;
  readonly deleteOne: Statement<[string]>;
  readonly insertChange: Statement<
    [number, string, string, string | null, string, number]
  >;
  readonly lastExpired: Statement<[number], number | null>;
  readonly pruneThrough: Statement<[number]>;
  readonly raisePruned: Statement<[number, number]>;
  readonly dataVersion: Statement<[], number>;
  readonly noBusyWait: Statement<[]>;
  readonly busyWait: Statement<[]>;
}

/** Prepares the statements of one connection; `busyTimeoutMs` is the wait the write lock restores. */
export function prepareStatements(
  db: Database.Database,
  busyTimeoutMs: number,
): SqliteStatements {
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
    selectChanges: db.prepare<[number, number], ChangeRow>(
      'SELECT id, name, op, etag, updated_at FROM changes WHERE id > ? ORDER BY id LIMIT ?',
    ),
    // Writes.
    selectStamp: db.prepare<
      [string],
      Pick<ConfigRow, 'created_at' | 'updated_at' | 'version'>
    >('SELECT created_at, updated_at, version FROM configs WHERE name = ?'),
    bumpRevision: db.prepare<[], { value: number }>(
      "UPDATE counters SET value = value + 1 WHERE key = 'version' RETURNING value",
    ),
    insert: db.prepare<[string, string, string, string, number]>(
      'INSERT INTO configs (name, json, created_at, updated_at, version) VALUES (?, ?, ?, ?, ?)',
    ),
    update: db.prepare<[string, string, number, string]>(
      'UPDATE configs SET json = ?, updated_at = ?, version = ? WHERE name = ?',
    ),
    deleteOne: db.prepare<[string]>('DELETE FROM configs WHERE name = ?'),
    insertChange: db.prepare<
      [number, string, string, string | null, string, number]
    >(
      'INSERT INTO changes (id, name, op, etag, updated_at, at) VALUES (?, ?, ?, ?, ?, ?)',
    ),
    // Pruning of the change history.
    lastExpired: db
      .prepare<[number], number | null>(
        'SELECT MAX(id) FROM changes WHERE at < ?',
      )
      .pluck(),
    pruneThrough: db.prepare<[number]>('DELETE FROM changes WHERE id <= ?'),
    raisePruned: db.prepare<[number, number]>(
      "UPDATE counters SET value = ? WHERE key = 'pruned' AND value < ?",
    ),
    // Watching and the write lock.
    dataVersion: db.prepare<[], number>('PRAGMA data_version').pluck(),
    noBusyWait: db.prepare('PRAGMA busy_timeout = 0'),
    busyWait: db.prepare(`PRAGMA busy_timeout = ${busyTimeoutMs}`),
  };
}
