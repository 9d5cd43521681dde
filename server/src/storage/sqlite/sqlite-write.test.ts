import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqliteConfigRepository } from './sqlite-config-repository.js';

const dir = mkdtempSync(join(tmpdir(), 'linkconfig-sqlite-write-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('sqlite write: the size a revision records', () => {
  it('is the stored text in UTF-8 bytes, as SQLite counts it when writing the row', async () => {
    const repo = createSqliteConfigRepository({ path: join(dir, 'size.db') });
    // Texts of every UTF-8 width (1 to 4 bytes a character, lone surrogates too), written as new rows and
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
          for (const again of twice ? [json, json] : [json]) {
            const put = await repo.put(name, again);
            expect(put.ok).toBe(true);
            const [newest] = await repo.history(name, { limit: 1 });
            expect(newest?.size).toBe(Buffer.byteLength(again, 'utf8'));
            expect((await repo.get(name))?.json).toBe(again);
          }
        }
      }),
      { numRuns: 60 },
    );
    await repo.close();
  });
});
