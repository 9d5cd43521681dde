import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { migrate } from './sqlite-migrations.js';

/**
 * Opens the database file (creating its folder when missing) with the settings every connection needs,
 * and brings its schema up to date: WAL, so readers never wait for the writer; `synchronous=FULL`, so an
 * acknowledged write survives power loss (refused to open if the setting did not take); a busy timeout
 * for reads (rarely needed in WAL mode; writes wait in `sqlite-write-lock.ts`); foreign keys on.
 */
export function openSqliteDatabase(
  path: string,
  busyTimeoutMs: number,
): Database.Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma(`busy_timeout = ${busyTimeoutMs}`);
  if (db.pragma('synchronous', { simple: true }) !== 2) {
    db.close();
    throw new Error(
      'SQLite refused synchronous=FULL; acknowledged writes would not be durable',
    );
  }
  db.pragma('foreign_keys = ON');
  migrate(db);
  return db;
}
