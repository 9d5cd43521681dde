import type Database from 'better-sqlite3';
import { HOOKS_TABLES_SQL } from './sqlite-hooks.js';
import { LINK_HEALTH_TABLE_SQL } from './sqlite-link-health.js';
import { PUBLISH_ONE_LOG_SQL, PUBLISH_TABLES_SQL } from './sqlite-publish.js';
import {
  firstRevisionsSql,
  REVISIONS_TABLE_SQL,
  addSummaryColumns,
} from './sqlite-history-schema.js';

/**
 * Schema migrations, applied in order (SQL, or a function for what SQL alone cannot do); `PRAGMA
 * user_version` records how many ran. A file with more than this build knows is refused.
 */
export const MIGRATIONS: readonly (
  string | ((db: Database.Database) => void)
)[] = [
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
  // The change feed: one row per committed change, keyed by the revision the write took. History from
  // before this migration is unknown, so it counts as pruned (a reader that old is told to re-list).
  `CREATE TABLE changes (
     id INTEGER PRIMARY KEY,
     name TEXT NOT NULL,
     op TEXT NOT NULL,
     etag TEXT,
     updated_at TEXT NOT NULL,
     at INTEGER NOT NULL
   );
   INSERT INTO counters (key, value) SELECT 'pruned', value FROM counters WHERE key = 'version'`,
  // Access keys (key-repository.ts): the secret only as its SHA-256 digest, patterns as a JSON array.
  `CREATE TABLE access_keys (
     id TEXT PRIMARY KEY NOT NULL,
     label TEXT NOT NULL,
     scope TEXT NOT NULL,
     configs TEXT NOT NULL,
     secret_hash TEXT NOT NULL UNIQUE,
     expires_at TEXT,
     created_at TEXT NOT NULL,
     last_used_at TEXT,
     revoked_at TEXT
   )`,
  // History (issue 18): every config stored so far gets a first revision (op put, by nobody).
  (db) => {
    db.exec(REVISIONS_TABLE_SQL);
    firstRevisionsSql(db);
  },
  // Link health (issue 31): one row per distinct URL of the configs, with the check's lease.
  LINK_HEALTH_TABLE_SQL,
  // One write, one log (issue 28): the revisions are the change feed, and the feed's own table goes. Its
  // ids are the revisions' ids, so a client's Last-Event-ID from before still resumes. The horizon (the
  // counter `pruned`) moves past every change whose name has no revision at or after it (a write from
  // before history was recorded, say a delete): a reader before it re-lists instead of missing it.
  // Entries of the log that are not writes (`appendEvent`) take ids from the same counter.
  `CREATE TABLE log_events (
     id INTEGER PRIMARY KEY,
     name TEXT NOT NULL,
     type TEXT NOT NULL,
     at INTEGER NOT NULL,
     by TEXT,
     request_id TEXT,
     detail TEXT
   );
   UPDATE counters SET value = MAX(value, COALESCE((
     SELECT MAX(c.id) FROM changes c WHERE NOT EXISTS (
       SELECT 1 FROM revisions r WHERE r.name = c.name AND r.id >= c.id)), 0))
   WHERE key = 'pruned';
   DROP TABLE changes`,
  // Webhooks (issue 30): each hook with its cursor in the log of changes, and its delivery attempts.
  HOOKS_TABLES_SQL,
  // Publishing (issue 30): each config's publish record, and the log of publishes and unpublishes.
  PUBLISH_TABLES_SQL,
  // One transaction for a publish and its log entry (issue 30): the publish log goes; `hide_broken` (#31).
  PUBLISH_ONE_LOG_SQL,
  // History pages from kept summaries (issue 29, item 2): each revision's link counts, written with it.
  // Columns added at the end, empty for the rows already there (no table rewrite, so a database with many
  // revisions opens at once); history fills those in as it lists them (`history-service.ts`).
  addSummaryColumns,
];

/** Applies the migrations the file has not had yet, each in its own transaction. */
export function migrate(db: Database.Database): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > MIGRATIONS.length) {
    throw new Error(
      `the database was written by a newer linkconfig (schema ${current}; this build knows ${MIGRATIONS.length}): upgrade the server to open it`,
    );
  }
  for (let i = current; i < MIGRATIONS.length; i++) {
    const sql = MIGRATIONS[i];
    if (sql === undefined) continue;
    db.transaction(() => {
      if (typeof sql === 'string') db.exec(sql);
      else sql(db);
      db.pragma(`user_version = ${i + 1}`);
    })();
  }
}
