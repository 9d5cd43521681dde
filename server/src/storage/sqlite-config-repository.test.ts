import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runConfigRepositoryContract } from './config-repository.contract.js';
import Database from 'better-sqlite3';
import { createServices } from '../services/services.js';
import {
  createSqliteConfigRepository,
  MIGRATIONS,
} from './sqlite-config-repository.js';

const dir = mkdtempSync(join(tmpdir(), 'linkconfig-sqlite-'));
let n = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

runConfigRepositoryContract('sqlite', {
  create: () =>
    createSqliteConfigRepository({ path: join(dir, `repo-${++n}.db`) }),
});

describe('sqlite repository', () => {
  it('keeps data and versions across reopen, creating missing folders', async () => {
    const path = join(dir, 'nested', 'deeper', 'db.sqlite');
    const first = createSqliteConfigRepository({ path });
    const put = await first.put('n', '{"allLinks":{}}', new Date(0));
    await first.close();
    const second = createSqliteConfigRepository({ path });
    expect((await second.get('n'))?.json).toBe('{"allLinks":{}}');
    const next = await second.put('m', '{}', new Date(0));
    expect(next.version).toBeGreaterThan(put.version);
    await second.close();
  });
});

describe('sqlite repository across connections', () => {
  it('moves the change token when another connection writes, not otherwise', async () => {
    const path = join(dir, 'token.db');
    const a = createSqliteConfigRepository({ path });
    const b = createSqliteConfigRepository({ path });
    const before = a.changeToken();
    expect(a.changeToken()).toBe(before);
    await b.put('n', '{}', new Date(0));
    expect(a.changeToken()).not.toBe(before);
    const mine = a.changeToken();
    await a.put('m', '{}', new Date(0));
    expect(a.changeToken()).not.toBe(mine);
    await Promise.all([a.close(), b.close()]);
  });

  it('lets two server processes on one file see each other’s writes (services over two connections)', async () => {
    const path = join(dir, 'two.db');
    const one = createServices({
      repository: createSqliteConfigRepository({ path }),
    });
    const two = createServices({
      repository: createSqliteConfigRepository({ path }),
    });
    await one.configs.put('n', { allLinks: { a: { url: 'https://1' } } });
    expect(
      (await two.configs.current('n'))?.entry.config.allLinks['a']?.url,
    ).toBe('https://1');
    await one.configs.put('n', { allLinks: { a: { url: 'https://2' } } });
    expect(
      (await two.configs.current('n'))?.entry.config.allLinks['a']?.url,
    ).toBe('https://2');
    await one.configs.remove('n');
    expect(await two.configs.current('n')).toBeNull();
    expect(await two.configs.list()).toEqual([]);
  });

  it('migrates a version-2 database (WITHOUT ROWID table) keeping its data', async () => {
    const path = join(dir, 'v2.db');
    const old = new Database(path);
    for (const sql of MIGRATIONS.slice(0, 2)) old.exec(sql);
    old.pragma('user_version = 2');
    old
      .prepare(
        'INSERT INTO configs (name, json, created_at, updated_at, version) VALUES (?, ?, ?, ?, ?)',
      )
      .run('kept', '{"allLinks":{}}', 'c', 'u', 7);
    old.prepare("UPDATE counters SET value = 7 WHERE key = 'version'").run();
    old.close();
    const repo = createSqliteConfigRepository({ path });
    expect(await repo.get('kept')).toEqual({
      name: 'kept',
      json: '{"allLinks":{}}',
      createdAt: 'c',
      updatedAt: 'u',
      version: 7,
    });
    expect((await repo.put('kept', '{}', new Date(0))).version).toBe(8);
    expect(await repo.count()).toBe(1);
    await repo.close();
  });
});
