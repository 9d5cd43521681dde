import type Database from 'better-sqlite3';
import { keyframe } from '../log/revision-content.js';

/**
 * The revisions of every config (`revision-write.ts`), one row per committed write, keyed by its change id
 * (the rowid, so the audit trail reads in key order); `(name, rev)` is unique. `at` is the write's
 * `updatedAt` in ms, `by` the author as JSON; `base`, `head`, `tail`, `chain`, `data` the content
 * (`revision-content.ts`; all null for a delete), the blob last so key lookups skip it.
 */
export const REVISIONS_TABLE_SQL = `CREATE TABLE revisions (
     id INTEGER PRIMARY KEY,
     name TEXT NOT NULL,
     rev INTEGER NOT NULL,
     op TEXT NOT NULL,
     at INTEGER NOT NULL,
     by TEXT,
     request_id TEXT,
     size INTEGER,
     base INTEGER,
     head INTEGER,
     tail INTEGER,
     chain INTEGER,
     data BLOB
   );
   CREATE UNIQUE INDEX revisions_name_rev ON revisions (name, rev)`;

/**
 * Adds the summary of each revision (`RevisionSummary`: links added, removed, changed, and held), all null
 * for a revision not summarized yet. Columns at the end, so no table rewrite; a column already there is
 * left as it is.
 */
export function addSummaryColumns(db: Database.Database): void {
  const have = new Set(
    (
      db.prepare('PRAGMA table_info(revisions)').all() as { name: string }[]
    ).map((c) => c.name),
  );
  for (const column of ['added', 'removed', 'changed', 'links']) {
    if (!have.has(column)) {
      db.exec(`ALTER TABLE revisions ADD COLUMN ${column} INTEGER`);
    }
  }
}

/** Gives every stored config its first revision: a keyframe of what is stored, op put, by nobody. */
export function firstRevisionsSql(db: Database.Database): void {
  const insert = db.prepare(
    `INSERT INTO revisions (id, name, rev, op, at, by, request_id, size, base, head, tail, chain, data)
     VALUES (?, ?, 1, 'put', ?, NULL, NULL, ?, 1, 0, 0, 0, ?)`,
  );
  const rows = db
    .prepare('SELECT name, json, updated_at, version FROM configs')
    .all() as {
    name: string;
    json: string;
    updated_at: string;
    version: number;
  }[];
  for (const row of rows) {
    const content = keyframe(1, row.json);
    insert.run(
      row.version,
      row.name,
      Date.parse(row.updated_at) || 0,
      Buffer.byteLength(row.json, 'utf8'),
      content.data,
    );
  }
}
