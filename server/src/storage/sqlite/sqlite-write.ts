import { stampOfRow } from '../config-write.js';
import type { WriteTransaction } from '../config-write.js';
import type { SqliteStatements } from './sqlite-statements.js';
import type { HistorySteps } from '../log/revision-write.js';

/**
 * The write steps of the SQLite adapter, each one statement, run by `config-write.ts` inside a
 * `BEGIN IMMEDIATE` transaction (`sqlite-group-commit.ts`) so the write lock is held before the first read.
 * `prune` keeps the history bounded after each appended change (`sqlite-pruning.ts`).
 */
export function sqliteWriteTransaction(
  statements: SqliteStatements,
  prune: (id: number, at: number) => void,
  history: Omit<HistorySteps, 'readCurrentJson'>,
): WriteTransaction {
  return {
    ...history,
    readCurrentJson: (name) => statements.selectOne.get(name)?.json ?? '',
    readCurrent: (name) => {
      const row = statements.selectStamp.get(name);
      return row === undefined ? null : stampOfRow(row);
    },
    nextRevision: () => {
      const bumped = statements.bumpRevision.get();
      if (bumped === undefined) throw new Error('revision counter missing');
      return bumped.value;
    },
    writeRow: (row, created) => {
      if (created) {
        statements.insert.run(
          row.name,
          row.json,
          row.createdAt,
          row.updatedAt,
          row.version,
        );
      } else {
        statements.update.run(row.json, row.updatedAt, row.version, row.name);
      }
    },
    deleteRow: (name) => {
      statements.deleteOne.run(name);
    },
    appendChange: (change, at) => {
      statements.insertChange.run(
        change.id,
        change.name,
        change.op,
        change.etag,
        change.updatedAt,
        at,
      );
      prune(change.id, at);
    },
  };
}
