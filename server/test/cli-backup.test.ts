import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.js';
import { startServer } from '../src/start-server.js';
import type { RunningServer } from '../src/start-server.js';
import type { StoredConfig } from '../src/storage/config-repository.js';
import { openRepository } from '../src/storage/open-repository.js';
import { runLinkconfig } from './cli-run.js';
import { TEST_POSTGRES_URL, dropSchemas } from './test-databases.js';

const dir = mkdtempSync(join(tmpdir(), 'linkconfig-cli-backup-'));
const prefix = `lc_backup_${randomBytes(4).toString('hex')}`;
const source = `sqlite:${join(dir, 'source.db')}`;
const backup = join(dir, 'backup.jsonl');
let server: RunningServer;

/** Configs whose exact text matters: key order, integer-like ids, escapes, names outside the BMP. */
const CONFIGS: Record<string, string> = {
  demo: '{"allLinks":{"b":{"url":"https://b.example/"},"2":{"url":"https://2.example/"}},"z":1,"a":2}',
  'with space': '{ "allLinks": {}, "settings": { "é": "\\u00e9" } }',
  '\u{1F600}': '{"allLinks":{"x":{"url":"https://x.example/","tags":["t"]}}}',
};

/** Every config of a database, with its text and timestamps. */
async function contents(url: string): Promise<Omit<StoredConfig, 'version'>[]> {
  const repository = await openRepository(url);
  try {
    const rows: Omit<StoredConfig, 'version'>[] = [];
    for await (const { version: _version, ...row } of repository.snapshot())
      rows.push(row);
    return rows;
  } finally {
    await repository.close();
  }
}

beforeAll(async () => {
  server = await startServer({
    databaseUrl: source,
    logger: createLogger('silent'),
    port: 0,
    host: '127.0.0.1',
    seed: 'none',
    appDir: '/nonexistent',
  });
  for (const [name, json] of Object.entries(CONFIGS)) {
    const response = await fetch(
      `${server.url}/configs/${encodeURIComponent(name)}`,
      {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body: json,
      },
    );
    expect(response.status).toBe(204);
  }
  // Overwritten once, so createdAt and updatedAt differ.
  await new Promise((resolve) => setTimeout(resolve, 5));
  await fetch(`${server.url}/configs/demo`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: CONFIGS['demo'],
  });
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
    expect(run.stdout).toMatch(/^backup of 3 configs \(0\.0 MB\) written to /);
    const lines = readFileSync(backup, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { kind: string });
    expect(lines.map((record) => record.kind)).toEqual([
      'header',
      'config',
      'config',
      'config',
      'end',
    ]);
    expect(lines[0]).toMatchObject({
      format: 'linkconfig-backup',
      version: 1,
      source: 'sqlite',
    });
    expect(lines.at(-1)).toEqual({ kind: 'end', counts: { config: 3 } });
  });

  it('restores SQLite → SQLite: the same texts, byte for byte, and the same timestamps', async () => {
    const target = `sqlite:${join(dir, 'copy.db')}`;
    const run = await runLinkconfig([
      'restore',
      backup,
      '--database-url',
      target,
    ]);
    expect(run).toEqual({
      code: 0,
      stdout: `restored 3 configs from ${backup}\n`,
      stderr: '',
    });
    const restored = await contents(target);
    expect(restored).toEqual(await contents(source));
    expect(restored.find((row) => row.name === 'demo')?.json).toBe(
      CONFIGS['demo'],
    );
    const demo = restored.find((row) => row.name === 'demo');
    expect(demo?.createdAt).not.toBe(demo?.updatedAt);
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
  });

  it('refuses a database that holds configs (exit 2), and replaces them with --force', async () => {
    const target = `sqlite:${join(dir, 'busy.db')}`;
    const repository = await openRepository(target);
    await repository.put('demo', '{"allLinks":{}}');
    await repository.put('extra', '{"allLinks":{}}');
    await repository.close();
    const refused = await runLinkconfig([
      'restore',
      backup,
      '--database-url',
      target,
    ]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/already holds 2 configs; .*--force/);
    expect((await contents(target)).map((row) => row.name)).toEqual([
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
      /restored 3 configs .*; 2 configs that were there were deleted first/,
    );
    expect(await contents(target)).toEqual(await contents(source));
  });

  it('writes nothing from a damaged file: cut short, or with a record kind it does not know', async () => {
    const lines = readFileSync(backup, 'utf8').trimEnd().split('\n');
    const cases: [string, string[], RegExp][] = [
      ['short.jsonl', lines.slice(0, -2), /ends before its end record/],
      [
        'future.jsonl',
        [
          ...lines.slice(0, 2),
          '{"kind":"revision","name":"demo"}',
          ...lines.slice(2),
        ],
        /line 3: records of kind "revision" are not known/,
      ],
      [
        'counted.jsonl',
        [...lines.slice(0, -1), '{"kind":"end","counts":{"config":4}}'],
        /counts 4 config records, the file holds 3/,
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
      expect(await contents(target)).toEqual([]);
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
