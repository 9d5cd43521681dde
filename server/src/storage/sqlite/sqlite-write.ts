import { stampOfRow } from '../config-write.js';
import type { WriteTransaction } from '../config-write.js';
import type { SqliteStatements } from './sqlite-statements.js';
import { authorText } from '../log/revision-write.js';
import { textOf } from '../stored-text.js';
import type { HistorySteps } from '../log/revision-write.js';

/**
 * The write steps of the SQLite adapter, each one statement, run by `config-write.ts` inside a
 * `BEGIN IMMEDIATE` transaction (`sqlite-group-commit.ts`) so the write lock is held before the first read.
 */
export function sqliteWriteTransaction(
  statements: SqliteStatements,
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
    writeRow: ({ name, json, createdAt, updatedAt, version }, created) => {
      // A text with its UTF-8 bytes, on a UTF-8 file: the bytes as they are (no second encoding).
      const { utf8 } = statements;
      if (typeof json !== 'string' && utf8 !== undefined) {
        const { bytes } = json;
        return (
          (created
            ? utf8.insert.get(name, bytes, createdAt, updatedAt, version)
            : utf8.update.get(bytes, updatedAt, version, name)) ?? undefined
        );
      }
      const text = textOf(json);
      return (
        (created
          ? statements.insert.get(name, text, createdAt, updatedAt, version)
          : statements.update.get(text, updatedAt, version, name)) ?? undefined
      );
    },
    deleteRow: (name) => {
      statements.deleteOne.run(name);
    },
    appendEvent: (event) => {
      statements.insertEvent.run(
        event.id,
        event.name,
        event.type,
        Date.parse(event.at),
        authorText(event.by),
        event.requestId,
        JSON.stringify(event.detail),
      );
    },
  };
}
