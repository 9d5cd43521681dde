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
  const encoded = scratchEncoder();
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
      // On a UTF-8 file, the text's UTF-8 bytes: those it came with, else encoded once (no second encoding).
      const { utf8 } = statements;
      const bytes =
        utf8 === undefined
          ? undefined
          : typeof json === 'string'
            ? encoded(json)
            : json.bytes;
      if (utf8 !== undefined && bytes !== undefined) {
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

/** The scratch buffer of {@link scratchEncoder}: texts up to a third of it in UTF-16 units fit whatever they hold. */
const SCRATCH_BYTES = 1024 * 1024;

/** `String.prototype.isWellFormed` (Node 20; not in the ES2022 typings): no lone surrogate. */
const isWellFormed = (text: string): boolean =>
  (text as unknown as { isWellFormed(): boolean }).isWellFormed();

/**
 * A text's UTF-8 bytes written into one buffer that every write of this connection reuses (a bound blob is
 * copied by SQLite at once, and the next write comes after): one pass over the text, where binding the string
 * makes better-sqlite3 measure it in UTF-8 first, then encode it into a new allocation. `undefined` for a text
 * the buffer may not hold, or one with a lone surrogate (those are bound as strings, as before); the buffer is
 * allocated on first use.
 */
function scratchEncoder(): (text: string) => Uint8Array | undefined {
  const encoder = new TextEncoder();
  let scratch: Uint8Array | undefined;
  return (text) => {
    if (text.length * 3 > SCRATCH_BYTES || !isWellFormed(text))
      return undefined;
    scratch ??= new Uint8Array(SCRATCH_BYTES);
    const { written } = encoder.encodeInto(text, scratch);
    return scratch.subarray(0, written);
  };
}
