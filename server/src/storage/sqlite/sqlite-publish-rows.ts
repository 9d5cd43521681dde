/**
 * Publish records in snapshots and restores of the SQLite file (`published`): read inside the snapshot's
 * read transaction, written inside the restore's transaction function, so they agree with the configs and
 * revisions around them.
 */
import type Database from 'better-sqlite3';
import type { SnapshotItem } from '../config-repository.js';
import {
  PUBLISH_COLUMNS,
  publishOfRow,
  publishValues,
} from '../publish-store.js';
import type { PublishRow, StoredPublish } from '../publish-store.js';

/** Every publish record of `db`, by name (byte order of UTF-8: code-point order). */
export function* sqlitePublishItems(
  db: Database.Database,
): Generator<SnapshotItem> {
  const select = db.prepare<[], PublishRow>(
    `SELECT ${PUBLISH_COLUMNS} FROM published ORDER BY name`,
  );
  for (const row of select.iterate()) {
    yield { kind: 'publish', publish: publishOfRow(row) };
  }
}

/** The steps of a restore that write publish records (run inside its transaction). */
export interface SqlitePublishRestore {
  /** Removes every record (`replace`). */
  readonly clear: () => void;
  /** Inserts the records as they are; a name that has one already throws (the transaction rolls back). */
  readonly insert: (records: readonly StoredPublish[]) => void;
}

export function sqlitePublishRestore(
  db: Database.Database,
): SqlitePublishRestore {
  const insert = db.prepare(
    `INSERT INTO published (${PUBLISH_COLUMNS}) VALUES (${PUBLISH_COLUMNS.split(
      ',',
    )
      .map(() => '?')
      .join(', ')})`,
  );
  const clear = db.prepare('DELETE FROM published');
  return {
    clear: () => {
      clear.run();
    },
    insert: (records) => {
      for (const record of records) insert.run(...publishValues(record));
    },
  };
}
