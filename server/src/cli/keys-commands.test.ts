import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import type { AccessKey } from '@linkconfig/shared';
import { createTestApp } from '../../test/test-app.js';
import { createSqliteConfigRepository } from '../storage/sqlite/sqlite-config-repository.js';
import { parseExpiry } from './keys-commands.js';
import { runCli } from './program.js';

const dir = mkdtempSync(join(tmpdir(), 'linkconfig-keys-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const newDatabase = () => join(dir, `keys-${++n}.db`);

/** Runs the command line in-process and keeps what it printed. */
async function run(
  argv: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const code = await runCli(argv, { env, stdout, stderr });
  return { code, stdout: out, stderr: err };
}

const lastLine = (text: string): string =>
  text.trimEnd().split('\n').at(-1) ?? '';

describe('linkconfig keys', () => {
  it('creates a key whose secret, alone on the last line, opens a server on the same database', async () => {
    const db = newDatabase();
    const created = await run([
      'keys',
      'create',
      '--label',
      'site A editor',
      '--scope',
      'write',
      '--configs',
      'site-a/*,docs',
      '--expires',
      '30d',
      '--database-url',
      db,
    ]);
    expect(created.code).toBe(0);
    const secret = lastLine(created.stdout);
    expect(secret).toMatch(/^lck_[A-Za-z0-9_-]{43}$/);
    expect(created.stdout).toMatch(/^scope: write$/m);
    expect(created.stdout).toMatch(/^configs: site-a\/\*,docs$/m);
    expect(created.stderr).toMatch(/shown only now/);

    const repository = createSqliteConfigRepository({ path: db });
    try {
      const t = createTestApp({ repository });
      const auth = { Authorization: `Bearer ${secret}` };
      expect((await t.put('site-a/menu', { allLinks: {} }, auth)).status).toBe(
        204,
      );
      expect((await t.put('site-b/menu', { allLinks: {} }, auth)).status).toBe(
        403,
      );
      // A server with a key is no longer open.
      expect((await t.put('site-a/menu', { allLinks: {} })).status).toBe(401);
    } finally {
      await repository.close();
    }
  });

  it('lists keys without secrets (a table, or JSON with --json), from DATABASE_URL', async () => {
    const db = newDatabase();
    const env = { DATABASE_URL: `sqlite:${db}` };
    const created = await run(
      [
        'keys',
        'create',
        '--label',
        'page',
        '--scope',
        'read',
        '--configs',
        'public/*',
      ],
      env,
    );
    const secret = lastLine(created.stdout);
    const listed = await run(['keys', 'list'], env);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^ID\s+LABEL\s+SCOPE\s+CONFIGS\s+STATUS/);
    expect(listed.stdout).toMatch(/\bpage\s+read\s+public\/\*\s+active\b/);
    expect(listed.stdout).not.toContain(secret);
    const json = await run(['keys', 'list', '--json'], env);
    const keys = JSON.parse(json.stdout) as AccessKey[];
    expect(keys.map((k) => [k.label, k.scope, k.configs])).toEqual([
      ['page', 'read', ['public/*']],
    ]);
    expect(json.stdout).not.toContain(secret);
    expect(json.stdout).not.toMatch(/hash/i);
  });

  it('revokes a key by id; an unknown id exits 1', async () => {
    const db = newDatabase();
    const created = await run([
      'keys',
      'create',
      '--label',
      'x',
      '--scope',
      'admin',
      '--configs',
      '*',
      '--database-url',
      db,
    ]);
    const id = /^id: (\S+)$/m.exec(created.stdout)?.[1] ?? '';
    const revoked = await run(['keys', 'revoke', id, '--database-url', db]);
    expect(revoked).toMatchObject({ code: 0, stdout: `revoked ${id}\n` });
    const json = await run(['keys', 'list', '--json', '--database-url', db]);
    expect(
      (JSON.parse(json.stdout) as AccessKey[])[0]?.revokedAt,
    ).not.toBeNull();
    const listed = await run(['keys', 'list', '--database-url', db]);
    expect(listed.stdout).toMatch(/\brevoked\b/);
    const unknown = await run([
      'keys',
      'revoke',
      'key_nope',
      '--database-url',
      db,
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no key has the id "key_nope"/);
  });

  it('exits 2 with the reason for usage mistakes, and stores nothing', async () => {
    const db = newDatabase();
    const base = ['keys', 'create', '--database-url', db];
    const cases: [string[], RegExp][] = [
      [['--scope', 'read', '--configs', '*'], /--label/],
      [
        ['--label', 'x', '--scope', 'owner', '--configs', '*'],
        /--scope must be one of read, write, publish, admin/,
      ],
      [
        ['--label', 'x', '--scope', 'read', '--configs', 'a,,b'],
        /--configs: "" must not be empty/,
      ],
      [
        [
          '--label',
          'x',
          '--scope',
          'read',
          '--configs',
          '*',
          '--expires',
          'soon',
        ],
        /--expires must be a duration/,
      ],
      [
        [
          '--label',
          'x',
          '--scope',
          'read',
          '--configs',
          '*',
          '--expires',
          '2001-01-01',
        ],
        /must lie in the future/,
      ],
      [
        ['--label', ' ', '--scope', 'read', '--configs', '*'],
        /label must not be empty/,
      ],
    ];
    for (const [args, reason] of cases) {
      const result = await run([...base, ...args]);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(reason);
      expect(result.stdout).toBe('');
    }
    const bad = await run(['keys', 'list', '--database-url', 'mysql://x/y']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/unsupported scheme "mysql:"/);
    // Nothing was stored: the database was not even created.
    const list = await run(['keys', 'list', '--json', '--database-url', db]);
    expect(list.code).toBe(1);
    expect(list.stderr).toMatch(/there is no database at/);
  });

  it('reads --expires as a duration from now or an ISO date', () => {
    const now = new Date('2026-01-01T00:00:00.000Z');
    expect(parseExpiry('30d', now)).toBe('2026-01-31T00:00:00.000Z');
    expect(parseExpiry('12h', now)).toBe('2026-01-01T12:00:00.000Z');
    expect(parseExpiry('2w', now)).toBe('2026-01-15T00:00:00.000Z');
    expect(parseExpiry('90m', now)).toBe('2026-01-01T01:30:00.000Z');
    expect(parseExpiry('2027-01-31', now)).toBe('2027-01-31T00:00:00.000Z');
    expect(parseExpiry('2027-01-31T10:00:00+02:00', now)).toBe(
      '2027-01-31T08:00:00.000Z',
    );
  });
});
