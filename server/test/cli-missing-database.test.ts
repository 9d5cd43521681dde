/**
 * A command that reads a database refuses a SQLite path where there is none (exit 1, naming the path)
 * instead of creating an empty database and "succeeding" on it; commands that may start a database
 * (keys create, import, restore) still create it.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runLinkconfig } from './cli-run.js';

const dir = mkdtempSync(join(tmpdir(), 'linkconfig-cli-missing-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a mistyped SQLite path', () => {
  const missing = join(dir, 'typo', '..', 'linkconfg.db');

  it.each([
    ['backup', ['backup', join(dir, 'out.jsonl')]],
    ['keys list', ['keys', 'list']],
    ['keys revoke', ['keys', 'revoke', 'key_x']],
    ['export', ['export', 'demo']],
  ])('%s exits 1 naming the path, and creates nothing', async (_, argv) => {
    const run = await runLinkconfig([
      ...argv,
      '--database-url',
      `sqlite:${missing}`,
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`there is no database at ${missing}`);
    expect(existsSync(missing)).toBe(false);
    expect(existsSync(join(dir, 'out.jsonl'))).toBe(false);
  });

  it('through DATABASE_URL too', async () => {
    const run = await runLinkconfig(['keys', 'list'], {
      DATABASE_URL: missing,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(missing);
    expect(existsSync(missing)).toBe(false);
  });

  it('keys create and import start a new database there', async () => {
    const keys = join(dir, 'keys.db');
    const created = await runLinkconfig([
      'keys',
      'create',
      '--label',
      'ops',
      '--scope',
      'admin',
      '--configs',
      '*',
      '--database-url',
      `sqlite:${keys}`,
    ]);
    expect(created.code).toBe(0);
    expect(existsSync(keys)).toBe(true);
    const file = join(dir, 'links.csv');
    writeFileSync(file, 'url,label\nhttps://example.com/,Example\n');
    const links = join(dir, 'links.db');
    const imported = await runLinkconfig([
      'import',
      file,
      '--into',
      'links',
      '--database-url',
      `sqlite:${links}`,
    ]);
    expect(imported.code).toBe(0);
    expect(existsSync(links)).toBe(true);
  });
});
