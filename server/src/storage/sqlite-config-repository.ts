import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { compareNames } from './config-repository.js';
import type {
  ConfigRepository,
  PutResult,
  StoredConfig,
} from './config-repository.js';

/** Schema migrations, applied in order; `PRAGMA user_version` records how many ran. */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE configs (
     name TEXT PRIMARY KEY NOT NULL,
     json TEXT NOT NULL,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     version INTEGER NOT NULL
   ) WITHOUT ROWID`,
  `CREATE TABLE counters (key TEXT PRIMARY KEY NOT NULL, value INTEGER NOT NULL) WITHOUT ROWID;
   INSERT INTO counters (key, value) SELECT 'version', COALESCE(MAX(version), 0) FROM configs`,
  // A WITHOUT ROWID table keeps the whole row in the primary-key b-tree, so with ~100 KB of JSON per row
  // every key lookup dragged the overflow pages along (~200 µs instead of ~5 µs). A rowid table with the
  // JSON last, plus a covering (name, version) index, answers version checks from the index alone.
  `CREATE TABLE configs_v3 (
     name TEXT NOT NULL,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     version INTEGER NOT NULL,
     json TEXT NOT NULL
   );
   INSERT INTO configs_v3 (name, created_at, updated_at, version, json)
     SELECT name, created_at, updated_at, version, json FROM configs;
   DROP TABLE configs;
   ALTER TABLE configs_v3 RENAME TO configs;
   CREATE UNIQUE INDEX configs_name ON configs (name);
   CREATE INDEX configs_name_version ON configs (name, version)`,
];

interface Row {
  name: string;
  json: string;
  created_at: string;
  updated_at: string;
  version: number;
}

/** Options of {@link createSqliteConfigRepository}. */
export interface SqliteRepositoryOptions {
  /** Path of the database file; its folder is created when missing. */
  readonly path: string;
}

/**
 * The default storage: one SQLite file (WAL, `synchronous=FULL`, one transaction per write). Config JSON is
 * stored as received. Calls are synchronous underneath (better-sqlite3), which is the fastest way to use
 * SQLite from one process; the async interface keeps the door open for other adapters.
 */
export function createSqliteConfigRepository(
  options: SqliteRepositoryOptions,
): ConfigRepository {
  if (options.path !== ':memory:') {
    mkdirSync(dirname(options.path), { recursive: true });
  }
  const db = new Database(options.path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  // Acknowledged writes must survive power loss: refuse to run if the setting did not take.
  if (db.pragma('synchronous', { simple: true }) !== 2) {
    db.close();
    throw new Error(
      'SQLite refused synchronous=FULL; acknowledged writes would not be durable',
    );
  }
  db.pragma('foreign_keys = ON');
  migrate(db);

  const selectNames = db.prepare<[], { name: string }>(
    'SELECT name FROM configs',
  );
  const selectVersions = db.prepare<[], { name: string; version: number }>(
    'SELECT name, version FROM configs',
  );
  const selectOne = db.prepare<[string], Row>(
    'SELECT name, json, created_at, updated_at, version FROM configs WHERE name = ?',
  );
  const selectVersion = db.prepare<[string], { version: number }>(
    'SELECT version FROM configs WHERE name = ?',
  );
  const selectCreated = db.prepare<[string], { created_at: string }>(
    'SELECT created_at FROM configs WHERE name = ?',
  );
  const bumpVersion = db.prepare<[], { value: number }>(
    "UPDATE counters SET value = value + 1 WHERE key = 'version' RETURNING value",
  );
  const update = db.prepare<[string, string, number, string]>(
    'UPDATE configs SET json = ?, updated_at = ?, version = ? WHERE name = ?',
  );
  const insert = db.prepare<[string, string, string, string, number]>(
    'INSERT INTO configs (name, json, created_at, updated_at, version) VALUES (?, ?, ?, ?, ?)',
  );
  const deleteOne = db.prepare<[string]>('DELETE FROM configs WHERE name = ?');
  const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  const countAll = db.prepare<[], { n: number }>(
    'SELECT COUNT(*) AS n FROM configs',
  );

  const putTx = db.transaction(
    (name: string, json: string, now: string): PutResult => {
      const previous = selectCreated.get(name);
      const bumped = bumpVersion.get();
      if (bumped === undefined) throw new Error('version counter missing');
      const createdAt = previous?.created_at ?? now;
      if (previous === undefined) {
        insert.run(name, json, createdAt, now, bumped.value);
      } else {
        update.run(json, now, bumped.value, name);
      }
      return {
        createdAt,
        updatedAt: now,
        version: bumped.value,
        created: previous === undefined,
      };
    },
  );

  let closed = false;
  /** Writes through this connection; `data_version` only moves for other connections' commits. */
  let ownWrites = 0;
  const guard = <T>(fn: () => T): Promise<T> => {
    if (closed) return Promise.reject(new Error('repository is closed'));
    try {
      return Promise.resolve(fn());
    } catch (error) {
      return Promise.reject(
        error instanceof Error ? error : new Error(String(error)),
      );
    }
  };

  return {
    list: () =>
      guard(() =>
        selectNames
          .all()
          .map((r) => r.name)
          .sort(compareNames),
      ),
    get: (name) =>
      guard((): StoredConfig | null => {
        const row = selectOne.get(name);
        return row === undefined
          ? null
          : {
              name: row.name,
              json: row.json,
              createdAt: row.created_at,
              updatedAt: row.updated_at,
              version: row.version,
            };
      }),
    listVersions: () =>
      guard(() =>
        selectVersions
          .all()
          .map(({ name, version }) => ({ name, version }))
          .sort((a, b) => compareNames(a.name, b.name)),
      ),
    version: (name) => guard(() => selectVersion.get(name)?.version ?? null),
    put: (name, json, now) =>
      guard(() => {
        ownWrites++;
        return putTx(name, json, now.toISOString());
      }),
    remove: (name) =>
      guard(() => {
        ownWrites++;
        return deleteOne.run(name).changes > 0;
      }),
    changeToken: () =>
      closed ? null : `${String(dataVersion.get())}:${ownWrites}`,
    count: () => guard(() => countAll.get()?.n ?? 0),
    close: () => {
      if (!closed) {
        closed = true;
        db.close();
      }
      return Promise.resolve();
    },
  };
}

function migrate(db: Database.Database): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  for (let i = current; i < MIGRATIONS.length; i++) {
    const sql = MIGRATIONS[i];
    if (sql === undefined) continue;
    db.transaction(() => {
      db.exec(sql);
      db.pragma(`user_version = ${i + 1}`);
    })();
  }
}
