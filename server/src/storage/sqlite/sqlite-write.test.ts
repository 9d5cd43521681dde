import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { Utf8Text } from '../stored-text.js';
import { createSqliteConfigRepository } from './sqlite-config-repository.js';

const dir = mkdtempSync(join(tmpdir(), 'linkconfig-sqlite-write-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('sqlite write: the size a revision records', () => {
  it('is the stored text in UTF-8 bytes, as SQLite counts it when writing the row', async () => {
    const repo = createSqliteConfigRepository({ path: join(dir, 'size.db') });
    // Texts of every UTF-8 width (1 to 4 bytes a character; JSON escapes lone surrogates), written as new rows and
    // over rows of the same and of other lengths (SQLite overwrites a row of the same size in place).
    const text = fc.string({ unit: 'binary', maxLength: 300 });
    const writes = fc.array(
      fc.tuple(fc.constantFrom('a', 'b', 'c'), text, fc.boolean()),
      { minLength: 1, maxLength: 12 },
    );
    await fc.assert(
      fc.asyncProperty(writes, async (list) => {
        for (const [name, body, twice] of list) {
          const json = JSON.stringify({ allLinks: {}, body });
          const utf8 = Utf8Text.decoded(Buffer.from(json, 'utf8'));
          // The text alone, then (or only) with its bytes: the same row, the same size.
          for (const again of twice ? [json, utf8 ?? ''] : [utf8 ?? '']) {
            // The size comes from SQLite: the text is not encoded again to count its bytes.
            const counted = vi.spyOn(Buffer, 'byteLength');
            const put = await repo.put(name, again);
            const recounted = counted.mock.calls.some(([t]) => t === json);
            counted.mockRestore();
            expect(recounted).toBe(false);
            expect(put.ok).toBe(true);
            const [newest] = await repo.history(name, { limit: 1 });
            expect(newest?.size).toBe(Buffer.byteLength(json, 'utf8'));
            expect((await repo.get(name))?.json).toBe(json);
          }
        }
      }),
      { numRuns: 60 },
    );
    await repo.close();
  });

  it('is the text as written, for texts encoded into the reused buffer and for those bound as strings', async () => {
    const repo = createSqliteConfigRepository({
      path: join(dir, 'scratch.db'),
    });
    const texts = [
      // Longer than the reused buffer holds in UTF-8 (3 bytes a character): bound as a string.
      JSON.stringify({ allLinks: {}, body: '€'.repeat(350_000) }),
      // Then shorter and shorter texts through the same buffer: nothing of the one before is left.
      JSON.stringify({ allLinks: {}, body: '€'.repeat(340_000) }),
      JSON.stringify({ allLinks: {}, body: 'é😀'.repeat(1000) }),
      JSON.stringify({ allLinks: {}, body: 'abc' }),
    ];
    for (const json of texts) {
      for (const name of ['x', `new-${texts.indexOf(json)}`]) {
        expect((await repo.put(name, json)).ok).toBe(true);
        expect((await repo.get(name))?.json).toBe(json);
        const [last] = await repo.history(name, { limit: 1 });
        expect(last?.size).toBe(Buffer.byteLength(json, 'utf8'));
      }
    }
    // A lone surrogate (no JSON text holds one raw): bound as a string, stored as better-sqlite3 binds it.
    const lone = `{"a":"${String.fromCharCode(0xd800)}x"}`;
    const bound = new Database(':memory:');
    const asString = bound.prepare('SELECT ?').pluck().get(lone);
    bound.close();
    expect((await repo.put('lone', lone)).ok).toBe(true);
    expect((await repo.get('lone'))?.json).toBe(asString);
    await repo.close();
  });

  it('is counted in UTF-8 bytes on a file whose text encoding is UTF-16 (made by another tool)', async () => {
    const path = join(dir, 'utf16.db');
    const made = new Database(path);
    made.pragma("encoding = 'UTF-16le'");
    made.exec('CREATE TABLE made_elsewhere (x)');
    made.close();
    const repo = createSqliteConfigRepository({ path });
    const json = JSON.stringify({ allLinks: {}, body: 'héllo 😀 abc' });
    expect((await repo.put('a', json)).ok).toBe(true);
    const [newest] = await repo.history('a', { limit: 1 });
    expect(newest?.size).toBe(Buffer.byteLength(json, 'utf8'));
    expect((await repo.get('a'))?.json).toBe(json);
    // A text with its UTF-8 bytes is stored as the text: the bytes, cast in this file's encoding, would not be.
    const other = JSON.stringify({ allLinks: {}, body: 'ünïcode ✓' });
    const text = Utf8Text.decoded(Buffer.from(other, 'utf8'));
    expect(text?.text).toBe(other);
    for (const name of ['a', 'new']) {
      expect((await repo.put(name, text ?? '')).ok).toBe(true);
      expect((await repo.get(name))?.json).toBe(other);
      const [last] = await repo.history(name, { limit: 1 });
      expect(last?.size).toBe(Buffer.byteLength(other, 'utf8'));
    }
    await repo.close();
  });
});
