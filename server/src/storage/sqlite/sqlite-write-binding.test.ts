/**
 * How the SQLite adapter binds a row's text (the statements are recorded, not run): on a UTF-8 file as
 * bytes, the ones the text came with or the text encoded once, never as a string for better-sqlite3 to
 * encode again; on another file, or for a text the reused buffer does not take, as the string. What is
 * stored either way is held by `sqlite-write.test.ts` and `server/test/put-bytes.test.ts`.
 */
import { describe, expect, it } from 'vitest';
import { Utf8Text } from '../stored-text.js';
import type { StoredText } from '../stored-text.js';
import type { SqliteStatements } from './sqlite-statements.js';
import { sqliteWriteTransaction } from './sqlite-write.js';
import type { HistorySteps } from '../log/revision-write.js';

/** Statements that record the arguments of every `get`, by statement. */
function recording(utf8File: boolean) {
  const calls: Record<string, unknown[][]> = {};
  const statement = (name: string) => ({
    get: (...args: unknown[]) => {
      (calls[name] ??= []).push(args);
      return 7;
    },
  });
  const statements = {
    insert: statement('insert'),
    update: statement('update'),
    ...(utf8File && {
      utf8: {
        insert: statement('utf8.insert'),
        update: statement('utf8.update'),
      },
    }),
  } as unknown as SqliteStatements;
  const tx = sqliteWriteTransaction(
    statements,
    {} as Omit<HistorySteps, 'readCurrentJson'>,
  );
  const write = (json: StoredText, created: boolean) =>
    tx.writeRow(
      {
        name: 'n',
        json,
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-01T00:00:00.000Z',
        version: 1,
      },
      created,
    );
  return { calls, write };
}

const JSON_TEXT = JSON.stringify({ allLinks: { a: { label: 'café ✓ 😀' } } });
const received = () => {
  const text = Utf8Text.decoded(Buffer.from(JSON_TEXT, 'utf8'));
  if (text === undefined) throw new Error('not UTF-8');
  return text;
};

describe('sqlite write: how a row’s text is bound', () => {
  it('binds the bytes a text came with, as they are, on a UTF-8 file', () => {
    const { calls, write } = recording(true);
    const text = received();
    expect(write(text, true)).toBe(7);
    expect(write(text, false)).toBe(7);
    expect(calls['utf8.insert']?.[0]?.[1]).toBe(text.bytes);
    expect(calls['utf8.update']?.[0]?.[0]).toBe(text.bytes);
    expect(calls['insert']).toBeUndefined();
    expect(calls['update']).toBeUndefined();
  });

  it('binds a string’s UTF-8 bytes, encoded once, on a UTF-8 file', () => {
    const { calls, write } = recording(true);
    write(JSON_TEXT, true);
    write(JSON_TEXT, false);
    for (const bound of [
      calls['utf8.insert']?.[0]?.[1],
      calls['utf8.update']?.[0]?.[0],
    ]) {
      expect(bound).toBeInstanceOf(Uint8Array);
      expect(Buffer.from(bound as Uint8Array).toString('utf8')).toBe(JSON_TEXT);
    }
    expect(calls['insert']).toBeUndefined();
    expect(calls['update']).toBeUndefined();
  });

  it('binds the string on a file of another encoding, and a text with a lone surrogate anywhere', () => {
    const other = recording(false);
    other.write(received(), true);
    other.write(JSON_TEXT, false);
    expect(other.calls['insert']?.[0]?.[1]).toBe(JSON_TEXT);
    expect(other.calls['update']?.[0]?.[0]).toBe(JSON_TEXT);
    const lone = `{"a":"${String.fromCharCode(0xd800)}"}`;
    const utf8 = recording(true);
    utf8.write(lone, true);
    expect(utf8.calls['insert']?.[0]?.[1]).toBe(lone);
    expect(utf8.calls['utf8.insert']).toBeUndefined();
  });
});
