/**
 * Publish records in the SQLite file (`published` and `publish_events`, sqlite-migrations.ts). A publish or
 * unpublish is one `BEGIN IMMEDIATE` transaction (the record and its event together); publishing is rare
 * next to config writes, so it takes no part in the configs' group commit.
 */
import type Database from 'better-sqlite3';
import { compareNames } from '../config-repository.js';
import {
  eventOfRow,
  eventValues,
  PUBLISH_COLUMNS,
  publishOfRow,
  publishValues,
} from '../publish-store.js';
import type {
  PublishEvent,
  PublishEventRow,
  PublishRow,
  PublishStore,
} from '../publish-store.js';

/** The tables, as one migration creates them. */
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

const EVENT_COLUMNS = 'id, name, op, rev, at, by, request_id';

/** A {@link PublishStore} on `db`; `guard` refuses calls once the repository is closed. */
export function createSqlitePublish(
  db: Database.Database,
  guard: <T>(fn: () => T) => Promise<T>,
): PublishStore {
  const placeholders = PUBLISH_COLUMNS.split(',')
    .map(() => '?')
    .join(', ');
  const selectOne = db.prepare<[string], PublishRow>(
    `SELECT ${PUBLISH_COLUMNS} FROM published WHERE name = ?`,
  );
  const selectVersion = db.prepare<[string], { version: number }>(
    'SELECT version FROM published WHERE name = ?',
  );
  const selectVersions = db.prepare<[], { name: string; version: number }>(
    'SELECT name, version FROM published',
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
  const insertEvent = db.prepare<
    [string, string, number, string, string | null, string | null],
    PublishEventRow
  >(
    `INSERT INTO publish_events (name, op, rev, at, by, request_id) VALUES (?, ?, ?, ?, ?, ?)
     RETURNING ${EVENT_COLUMNS}`,
  );
  const selectEvents = db.prepare<[number, number], PublishEventRow>(
    `SELECT ${EVENT_COLUMNS} FROM publish_events WHERE id > ? ORDER BY id LIMIT ?`,
  );
  const selectHead = db.prepare<[], { head: number }>(
    'SELECT COALESCE(MAX(id), 0) AS head FROM publish_events',
  );
  const logged = (event: Omit<PublishEvent, 'id'>): PublishEvent => {
    const row = insertEvent.get(...eventValues(event));
    if (row === undefined) throw new Error('publish event not stored');
    return eventOfRow(row);
  };
  const setTx = db.transaction(
    (values: unknown[], event: Omit<PublishEvent, 'id'>) => {
      upsert.run(...values);
      return logged(event);
    },
  );
  const removeTx = db.transaction(
    (name: string, event: Omit<PublishEvent, 'id' | 'rev'>) => {
      const found = selectRev.get(name);
      if (found === undefined) return null;
      deleteOne.run(name);
      return logged({ ...event, rev: found.rev });
    },
  );
  return {
    get: (name) =>
      guard(() => {
        const row = selectOne.get(name);
        return row === undefined ? null : publishOfRow(row);
      }),
    version: (name) => guard(() => selectVersion.get(name)?.version ?? null),
    versions: () =>
      guard(() =>
        selectVersions
          .all()
          .map(({ name, version }) => ({ name, version }))
          .sort((a, b) => compareNames(a.name, b.name)),
      ),
    set: (record, requestId) =>
      guard(() =>
        setTx.immediate(publishValues(record), {
          name: record.name,
          op: 'publish',
          rev: record.rev,
          at: record.publishedAt,
          by: record.publishedBy,
          requestId: requestId ?? null,
        }),
      ),
    remove: (name, origin) =>
      guard(() =>
        removeTx.immediate(name, {
          name,
          op: 'unpublish',
          at: origin.at,
          by: origin.by,
          requestId: origin.requestId ?? null,
        }),
      ),
    events: (afterId, limit) =>
      guard(() => selectEvents.all(afterId, limit).map(eventOfRow)),
    head: () => guard(() => selectHead.get()?.head ?? 0),
  };
}
