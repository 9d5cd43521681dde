import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import type { Hook } from '@linkconfig/shared';
import { createSqliteConfigRepository } from '../storage/sqlite/sqlite-config-repository.js';
import { runCli } from './program.js';

const dir = mkdtempSync(join(tmpdir(), 'linkconfig-hooks-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const newDatabase = () => join(dir, `hooks-${++n}.db`);

/** Runs the command line in-process and keeps what it printed. */
async function run(
  argv: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const code = await runCli(argv, { env: {}, stdout, stderr });
  return { code, stdout: out, stderr: err };
}

describe('linkconfig hooks', () => {
  it('adds a hook (secret once, last line), lists it, shows its log, removes it', async () => {
    const db = newDatabase();
    const repo = createSqliteConfigRepository({ path: db });
    await repo.put('site-a/menu', JSON.stringify({ allLinks: {} }));
    await repo.close();
    const added = await run([
      'hooks',
      'add',
      'https://receiver.example/linkconfig',
      '--events',
      'publish,change,link-broken',
      '--configs',
      'site-a/*',
      '--database-url',
      db,
    ]);
    expect(added.code, added.stderr).toBe(0);
    const secret = added.stdout.trimEnd().split('\n').at(-1) ?? '';
    expect(secret).toMatch(/^whsec_/);
    const id = /^id: (\S+)$/m.exec(added.stdout)?.[1] ?? '';
    const listed = await run(['hooks', 'list', '--json', '--database-url', db]);
    const hooks = JSON.parse(listed.stdout) as Hook[];
    expect(hooks).toMatchObject([
      {
        id,
        url: 'https://receiver.example/linkconfig',
        events: ['publish', 'change', 'link-broken'],
        configs: ['site-a/*'],
        cursor: 1,
      },
    ]);
    expect(listed.stdout).not.toContain(secret);
    const table = await run(['hooks', 'list', '--database-url', db]);
    expect(table.stdout).toContain(id);
    const log = await run(['hooks', 'log', id, '--database-url', db]);
    expect(log).toMatchObject({ code: 0, stdout: 'no deliveries yet\n' });
    expect(
      (await run(['hooks', 'remove', id, '--database-url', db])).code,
    ).toBe(0);
    const gone = await run(['hooks', 'log', id, '--database-url', db]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain(`no hook has the id "${id}"`);
  });

  it('refuses a bad hook as a usage mistake (exit 2) and stores nothing', async () => {
    const db = newDatabase();
    const bad = await run([
      'hooks',
      'add',
      'ftp://receiver.example/',
      '--events',
      'change',
      '--configs',
      '*',
      '--database-url',
      db,
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('http:// or https://');
    const unknown = await run([
      'hooks',
      'add',
      'https://receiver.example/',
      '--events',
      'everything',
      '--configs',
      '*',
      '--database-url',
      db,
    ]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('must be one of change, publish');
  });
});
