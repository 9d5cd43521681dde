import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { startServer } from '../../src/start-server.js';
import type { RunningServer } from '../../src/start-server.js';
import { secretHash } from '../../src/keys/key-secret.js';
import { openRepository } from '../../src/storage/open-repository.js';
import {
  CONFIGS,
  SECRET,
  bearer,
  configsOf,
  contents,
  writesGoOn,
} from './backup-fixtures.js';
import { runLinkconfig } from '../cli-run.js';
import { TEST_POSTGRES_URL, dropSchemas } from '../test-databases.js';
const HOOK_SECRET = 'whsec_backup_test_secret_never_in_a_file';

const dir = mkdtempSync(join(tmpdir(), 'linkconfig-cli-backup-'));
const prefix = `lc_backup_${randomBytes(4).toString('hex')}`;
const source = `sqlite:${join(dir, 'source.db')}`;
const backup = join(dir, 'backup.jsonl');
let server: RunningServer;

beforeAll(async () => {
  const repository = await openRepository(source);
  await repository.keys.insert({
    id: 'key_ops',
    label: 'ops',
    scope: 'admin',
    configs: ['*'],
    secretHash: secretHash(SECRET),
    expiresAt: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    lastUsedAt: null,
    revokedAt: null,
  });
  // What the link checker found: kept in backups, so a restored database does not start over.
  await repository.linkHealth.putAll([
    {
      url: 'https://example.org/gone',
      state: 'broken',
      since: '2026-01-02T00:00:00.000Z',
      checkedAt: '2026-01-02T00:00:00.000Z',
      status: 404,
      finalUrl: 'https://example.org/gone',
      reason: 'HTTP 404',
      failingSince: null,
      failures: 2,
      nextAt: 1_767_312_000_000,
    },
  ]);
  // A webhook: kept in backups without its signing secret.
  await repository.hooks.insert({
    id: 'hook_backup',
    url: 'https://receiver.example/hook',
    events: ['change', 'publish'],
    configs: ['docs/*'],
    secret: HOOK_SECRET,
    createdAt: '2026-01-02T00:00:00.000Z',
    cursor: 0,
    attempts: 0,
    failingSince: null,
    nextAt: 0,
    lastError: null,
  });
  await repository.close();
  server = await startServer({
    databaseUrl: source,
    logger: createLogger('silent'),
    port: 0,
    host: '127.0.0.1',
    seed: 'none',
    appDir: '/nonexistent',
  });
  const send = async (name: string, method: string, body?: string) => {
    const response = await fetch(
      `${server.url}/configs/${encodeURIComponent(name)}`,
      {
        method,
        headers: {
          'Content-Type': 'application/json',
          'X-Request-Id': `req-${encodeURIComponent(name)}`,
          ...bearer,
        },
        ...(body === undefined ? {} : { body }),
      },
    );
    expect(response.status).toBe(204);
  };
  for (const [name, json] of Object.entries(CONFIGS))
    await send(name, 'PUT', json);
  // Overwritten once, so createdAt and updatedAt differ and demo has two revisions.
  await new Promise((resolve) => setTimeout(resolve, 5));
  await send('demo', 'PUT', CONFIGS['demo']);
  // A deleted config: its history is kept.
  await send('old', 'PUT', '{"allLinks":{}}');
  await send('old', 'DELETE');
});
afterAll(async () => {
  await server.close();
  await dropSchemas(prefix);
  rmSync(dir, { recursive: true, force: true });
});

describe('linkconfig backup and restore', () => {
  it('backs up a SQLite database while its server runs', async () => {
    const run = await runLinkconfig([
      'backup',
      backup,
      '--database-url',
      source,
    ]);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(
      /^backup of 3 configs, 6 revisions, 0 publish records, 1 access keys and 1 link checks \(0\.0 MB\) written to /,
    );
    const lines = readFileSync(backup, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { kind: string });
    expect(lines.map((record) => record.kind)).toEqual([
      'header',
      'config',
      'config',
      'config',
      ...Array<string>(6).fill('revision'),
      'key',
      'link',
      'hook',
      'end',
    ]);
    expect(lines[0]).toMatchObject({
      format: 'linkconfig-backup',
      version: 5,
      source: 'sqlite',
    });
    expect(lines.at(-1)).toEqual({
      kind: 'end',
      counts: { config: 3, publish: 0, revision: 6, key: 1, link: 1, hook: 1 },
    });
    const text = readFileSync(backup, 'utf8');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(HOOK_SECRET);
    expect(text).toContain(secretHash(SECRET));
  });

  it('restores SQLite → SQLite: the same texts, byte for byte, timestamps, history and keys', async () => {
    const target = `sqlite:${join(dir, 'copy.db')}`;
    const run = await runLinkconfig([
      'restore',
      backup,
      '--database-url',
      target,
    ]);
    expect(run).toEqual({
      code: 0,
      stdout: `restored 3 configs, 6 revisions, 0 publish records, 1 access keys and 1 link checks from ${backup}\n`,
      stderr: '',
    });
    const restored = await contents(target);
    expect(restored).toEqual(await contents(source));
    // The hook came back without a secret: it delivers nothing until it is made again.
    const copy = await openRepository(target);
    expect((await copy.hooks.get('hook_backup'))?.secret).toBeNull();
    await copy.close();
    const configs = restored['configs'] as {
      name: string;
      json: string;
      createdAt: string;
      updatedAt: string;
    }[];
    const demo = configs.find((row) => row.name === 'demo');
    expect(demo?.json).toBe(CONFIGS['demo']);
    expect(demo?.createdAt).not.toBe(demo?.updatedAt);
    expect(restored['deleted']).toEqual(['old']);
    expect(restored['trail']).toHaveLength(6);
    expect((restored['trail'] as { requestId: string }[])[0]).toMatchObject({
      requestId: 'req-demo',
      by: { id: 'key_ops', label: 'ops' },
    });
    await writesGoOn(target);
  });

  it('restores SQLite → PostgreSQL, the way an operator moves up', async () => {
    const target = `${TEST_POSTGRES_URL}?schema=${prefix}_up`;
    const run = await runLinkconfig([
      'restore',
      backup,
      '--database-url',
      target,
    ]);
    expect(run.code).toBe(0);
    expect(await contents(target)).toEqual(await contents(source));
    await writesGoOn(target);
  });

  it('restores an older backup file (format 1, configs only) through the write algorithm', async () => {
    const file = join(dir, 'format1.jsonl');
    const records = [
      {
        kind: 'header',
        format: 'linkconfig-backup',
        version: 1,
        createdAt: '2026-01-01T00:00:00.000Z',
        source: 'sqlite',
      },
      {
        kind: 'config',
        name: 'demo',
        json: CONFIGS['demo'],
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-02T00:00:00.000Z',
      },
      { kind: 'end', counts: { config: 1 } },
    ];
    writeFileSync(file, records.map((r) => `${JSON.stringify(r)}\n`).join(''));
    const target = `sqlite:${join(dir, 'format1.db')}`;
    const run = await runLinkconfig([
      'restore',
      file,
      '--database-url',
      target,
    ]);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const restored = await contents(target);
    expect(restored['configs']).toMatchObject([
      {
        name: 'demo',
        json: CONFIGS['demo'],
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-02T00:00:00.000Z',
      },
    ]);
    expect(restored['demo']).toMatchObject([
      { meta: { rev: 1, op: 'restore' }, json: CONFIGS['demo'] },
    ]);
  });

  it('refuses a database that holds configs (exit 2), and replaces them with --force', async () => {
    const target = `sqlite:${join(dir, 'busy.db')}`;
    const repository = await openRepository(target);
    await repository.put('demo', '{"allLinks":{}}');
    await repository.put('extra', '{"allLinks":{}}');
    await repository.put('gone', '{"allLinks":{}}');
    await repository.remove('gone');
    await repository.close();
    const refused = await runLinkconfig([
      'restore',
      backup,
      '--database-url',
      target,
    ]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /already holds 2 configs, the history of 1 deleted configs; .*--force/,
    );
    expect((await configsOf(target)).map((row) => row.name)).toEqual([
      'demo',
      'extra',
    ]);
    const forced = await runLinkconfig([
      'restore',
      backup,
      '--database-url',
      target,
      '--force',
    ]);
    expect(forced.stdout).toMatch(
      /restored 3 configs, .*; 2 configs that were there were deleted first/,
    );
    expect(await contents(target)).toEqual(await contents(source));
    await writesGoOn(target);
  });

  it('writes nothing from a damaged file: cut short, or with a record kind it does not know', async () => {
    const lines = readFileSync(backup, 'utf8').trimEnd().split('\n');
    const cases: [string, string[], RegExp][] = [
      ['short.jsonl', lines.slice(0, -2), /ends before its end record/],
      [
        'future.jsonl',
        [
          ...lines.slice(0, 2),
          '{"kind":"attachment","name":"demo"}',
          ...lines.slice(2),
        ],
        /line 3: records of kind "attachment" are not known/,
      ],
      [
        'counted.jsonl',
        [
          ...lines.slice(0, -1),
          '{"kind":"end","counts":{"config":4,"revision":6,"key":1}}',
        ],
        /counts 4 config records, the file holds 3/,
      ],
      [
        'history.jsonl',
        lines.map((line) =>
          line.includes('"kind":"config","name":"demo"')
            ? line.replace('\\"z\\":1', '\\"z\\":7')
            : line,
        ),
        /the newest revision of "demo" does not hold what the config stores/,
      ],
      [
        'lacking.jsonl',
        lines
          .filter(
            (line) =>
              !(
                line.includes('"kind":"revision"') && line.includes('"rev":1,')
              ),
          )
          .map((line) =>
            line.startsWith('{"kind":"end"')
              ? '{"kind":"end","counts":{"config":3,"revision":2,"key":1}}'
              : line,
          ),
        /revision 2 of "(demo|old)" is a change of a revision the file lacks|newest revision of/,
      ],
      [
        'invalid.jsonl',
        [
          lines[0] ?? '',
          '{"kind":"config","name":"n","json":"{\\"allLinks\\":[]}","createdAt":"2026-01-01T00:00:00.000Z","updatedAt":"2026-01-01T00:00:00.000Z"}',
          '{"kind":"end","counts":{"config":1}}',
        ],
        /line 2: config "n": allLinks must be an object/,
      ],
    ];
    for (const [name, content, message] of cases) {
      const file = join(dir, name);
      writeFileSync(file, `${content.join('\n')}\n`);
      const target = `sqlite:${join(dir, `restore-${name}.db`)}`;
      const run = await runLinkconfig([
        'restore',
        file,
        '--database-url',
        target,
      ]);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(message);
      expect(await configsOf(target)).toEqual([]);
    }
  });

  it('says which scheme a database URL may not have (exit 2)', async () => {
    const run = await runLinkconfig([
      'backup',
      backup,
      '--database-url',
      'mysql://x',
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/unsupported scheme "mysql:"/);
  });
});
