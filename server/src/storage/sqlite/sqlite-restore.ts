/**
 * The SQLite side of `ConfigRepository.restoreRows`: the rows of a backup (configs, revisions, publish
 * records) written as they are, in one transaction function (a savepoint inside the group commit's
 * transaction, so all or nothing).
 */
import type Database from 'better-sqlite3';
import type { RestoreRows } from '../config-repository.js';
import { ROW_COLUMNS, rowValues } from '../log/history-rows.js';
import { highestId } from '../write-rules.js';
import { sqlitePublishRestore } from './sqlite-publish-rows.js';

/** The transaction function that writes `rows` (see `ConfigRepository.restoreRows`). */
export function sqliteRestore(
  db: Database.Database,
): (rows: RestoreRows, replace: boolean) => { ok: true } {
  const insertConfig = db.prepare(
    'INSERT INTO configs (name, json, created_at, updated_at, version) VALUES (?, ?, ?, ?, ?)',
  );
  const insertRevision = db.prepare(
    `INSERT INTO revisions (${ROW_COLUMNS}) VALUES (${ROW_COLUMNS.split(',')
      .map(() => '?')
      .join(', ')})`,
  );
  // Both marks from the counter's value before the statement: the head, and the feed pruned up to it.
  const raise = db.prepare<[number]>(
    `UPDATE counters SET value = MAX((SELECT value FROM counters WHERE key = 'version'), ?)
     WHERE key IN ('version', 'pruned')`,
  );
  const published = sqlitePublishRestore(db);
  return db.transaction((rows: RestoreRows, replace: boolean) => {
    if (replace) published.clear();
    if (replace)
      db.exec(
        'DELETE FROM configs; DELETE FROM revisions; DELETE FROM log_events',
      );
    for (const c of rows.configs) {
      insertConfig.run(c.name, c.json, c.createdAt, c.updatedAt, c.version);
    }
    for (const record of rows.revisions) {
      insertRevision.run(...rowValues(record));
    }
    published.insert(rows.published ?? []);
    raise.run(highestId(rows));
    return { ok: true } as const;
  });
}
