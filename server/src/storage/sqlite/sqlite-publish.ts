/**
 * Publish records in the SQLite file (`published`, sqlite-migrations.ts). A publish or unpublish is one
 * write of the repository's group commit: the record and its entry of the one log (`log_events`, the
 * same id counter as writes) in one savepoint of one transaction, so both are stored or neither.
 */
import type Database from 'better-sqlite3';
import { compareNames } from '../config-repository.js';
import type { LogEvent } from '../config-repository.js';
import { appendLogEvent } from '../config-write.js';
import type { WriteTransaction } from '../config-write.js';
import {
  originsOfRows,
  PUBLISH_COLUMNS,
  publishLogEntry,
  publishOfRow,
  publishValues,
  unpublishLogEntry,
} from '../publish-store.js';
import type {
  OriginsRow,
  PublishOrigin,
  PublishRow,
  PublishStore,
  StoredPublish,
} from '../publish-store.js';

/** The tables as the first publishing migration created them (its log table went in the next one). */
export const PUBLISH_TABLES_SQL = `CREATE TABLE published (
     name TEXT PRIMARY KEY NOT NULL,
     rev INTEGER NOT NULL,
     version INTEGER NOT NULL,
     json TEXT NOT NULL,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     etag TEXT NOT NULL,
     origins TEXT,
     published_at TEXT NOT NULL,
     published_by TEXT
   );
   CREATE TABLE publish_events (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     name TEXT NOT NULL,
     op TEXT NOT NULL,
     rev INTEGER NOT NULL,
     at TEXT NOT NULL,
     by TEXT,
     request_id TEXT
   )`;

/**
 * Publishes and unpublishes are entries of the one log, written with their record in one transaction:
 * the second log goes (what it held is in `log_events` too), and a record says whether the published
 * view hides links confirmed broken.
 */
export const PUBLISH_ONE_LOG_SQL = `DROP TABLE publish_events;
   ALTER TABLE published ADD COLUMN hide_broken INTEGER NOT NULL DEFAULT 0`;

/** How a publish write joins the repository's writes. */
export interface SqlitePublishWrites {
  /** Queues a write in the group commit; resolves once it is committed. */
  readonly write: <T extends { ok: boolean }>(run: () => T) => Promise<T>;
  /** The write steps of the repository (the log and its id counter). */
  readonly tx: WriteTransaction;
}

/** A {@link PublishStore} on `db`; `guard` refuses calls once the repository is closed. */
export function createSqlitePublish(
  db: Database.Database,
  guard: <T>(fn: () => T) => Promise<T>,
  { write, tx }: SqlitePublishWrites,
): PublishStore {
  const placeholders = PUBLISH_COLUMNS.split(',')
    .map(() => '?')
    .join(', ');
  const selectOne = db.prepare<[string], PublishRow>(
    `SELECT ${PUBLISH_COLUMNS} FROM published WHERE name = ?`,
  );
  const selectVersion = db.prepare<
    [string],
    { version: number; hide_broken: number }
  >('SELECT version, hide_broken FROM published WHERE name = ?');
  const selectVersions = db.prepare<
    [],
    { name: string; version: number; hide_broken: number }
  >('SELECT name, version, hide_broken FROM published');
  const selectOrigins = db.prepare<[], OriginsRow>(
    'SELECT name, origins FROM published',
  );
  const selectOriginsOf = db.prepare<[string], OriginsRow>(
    'SELECT name, origins FROM published WHERE name = ?',
  );
  const upsert = db.prepare(
    `INSERT OR REPLACE INTO published (${PUBLISH_COLUMNS}) VALUES (${placeholders})`,
  );
  const selectRev = db.prepare<[string], { rev: number }>(
    'SELECT rev FROM published WHERE name = ?',
  );
  const deleteOne = db.prepare<[string]>(
    'DELETE FROM published WHERE name = ?',
  );
  // Each a savepoint inside the group's transaction: a step that throws rolls back both.
  const setTx = db.transaction(
    (record: StoredPublish, requestId: string | undefined) => {
      upsert.run(...publishValues(record));
      return {
        ok: true,
        entry: appendLogEvent(tx, publishLogEntry(record, requestId)),
      };
    },
  );
  const removeTx = db.transaction(
    (
      name: string,
      origin: PublishOrigin,
    ): { ok: boolean; entry?: LogEvent } => {
      const found = selectRev.get(name);
      if (found === undefined) return { ok: false };
      deleteOne.run(name);
      return {
        ok: true,
        entry: appendLogEvent(tx, unpublishLogEntry(name, found.rev, origin)),
      };
    },
  );
  return {
    get: (name) =>
      guard(() => {
        const row = selectOne.get(name);
        return row === undefined ? null : publishOfRow(row);
      }),
    version: (name) =>
      guard(() => {
        const row = selectVersion.get(name);
        return row === undefined
          ? null
          : { version: row.version, hideBroken: row.hide_broken === 1 };
      }),
    versions: () =>
      guard(() =>
        selectVersions
          .all()
          .map(({ name, version, hide_broken }) => ({
            name,
            version,
            hideBroken: hide_broken === 1,
          }))
          .sort((a, b) => compareNames(a.name, b.name)),
      ),
    origins: (name) =>
      guard(() =>
        originsOfRows(
          name === undefined ? selectOrigins.all() : selectOriginsOf.all(name),
        ),
      ),
    set: async (record, requestId) =>
      (await write(() => setTx(record, requestId))).entry,
    remove: async (name, origin) =>
      (await write(() => removeTx(name, origin))).entry ?? null,
  };
}
