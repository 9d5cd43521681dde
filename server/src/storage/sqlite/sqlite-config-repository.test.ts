import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runConfigRepositoryContract } from '../contract/config-repository.contract.js';
import Database from 'better-sqlite3';
import { createServices } from '../../services/services.js';
import type { ConfigRepository } from '../config-repository.js';
import { createSqliteConfigRepository } from './sqlite-config-repository.js';
import { MIGRATIONS } from './sqlite-migrations.js';
import { PUBLISH_ONE_LOG_SQL, PUBLISH_TABLES_SQL } from './sqlite-publish.js';

const dir = mkdtempSync(join(tmpdir(), 'linkconfig-sqlite-'));
let n = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The file each repository of the contract run uses, for a second connection to it. */
const files = new WeakMap<ConfigRepository, string>();
const open = (path: string): ConfigRepository => {
  const repo = createSqliteConfigRepository({ path, pollMs: 50 });
  files.set(repo, path);
  return repo;
};

runConfigRepositoryContract('sqlite', {
  create: () => open(join(dir, `repo-${++n}.db`)),
  connect: (repo) => open(files.get(repo) ?? ''),
});

const epoch = { now: () => new Date(0) };

/** The migration that folds the changes table into the log. */
const FOLD_MIGRATION = MIGRATIONS.findIndex(
  (m) => typeof m === 'string' && m.includes('DROP TABLE changes'),
);

describe('sqlite group commit', () => {
  it('commits writes that arrive together in one transaction, each acknowledged after it', async () => {
    const commits: number[] = [];
    const path = join(dir, `group-${++n}.db`);
    const repo = createSqliteConfigRepository({
      path,
      onCommit: (writes) => commits.push(writes),
    });
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        repo.put(`n${i}`, `{"allLinks":{},"i":${i}}`, epoch),
      ),
    );
    expect(results.every((r) => r.ok)).toBe(true);
    expect(commits.reduce((a, b) => a + b, 0)).toBe(20);
    expect(commits.length).toBeLessThan(20);
    // Acknowledged means committed: another connection sees every one of them.
    const other = createSqliteConfigRepository({ path });
    expect(await other.count()).toBe(20);
    await other.close();
    await repo.close();
  });

  it('rolls back only the write that fails, not the others of its group', async () => {
    const repo = createSqliteConfigRepository({
      path: join(dir, `group-${++n}.db`),
    });
    const [good, bad, other] = await Promise.allSettled([
      repo.put('good', '{"allLinks":{}}', epoch),
      // NOT NULL on the JSON column: this one statement fails inside the group's transaction.
      repo.put('bad', null as unknown as string, epoch),
      repo.put('other', '{"allLinks":{}}', epoch),
    ]);
    expect(good.status).toBe('fulfilled');
    expect(bad.status).toBe('rejected');
    expect(other.status).toBe('fulfilled');
    expect(await repo.list()).toEqual(['good', 'other']);
    await repo.close();
  });
});

describe('sqlite repository', () => {
  it('keeps data and versions across reopen, creating missing folders', async () => {
    const path = join(dir, 'nested', 'deeper', 'db.sqlite');
    const first = createSqliteConfigRepository({ path });
    const put = await first.put('n', '{"allLinks":{}}', epoch);
    await first.close();
    const second = createSqliteConfigRepository({ path });
    expect((await second.get('n'))?.json).toBe('{"allLinks":{}}');
    const next = await second.put('m', '{}', epoch);
    expect(next.ok && put.ok && next.version > put.version).toBe(true);
    await second.close();
  });
});

describe('sqlite repository across connections', () => {
  it('moves the change token when another connection writes, not otherwise', async () => {
    const path = join(dir, 'token.db');
    const a = createSqliteConfigRepository({ path });
    const b = createSqliteConfigRepository({ path });
    const before = await a.changeToken();
    expect(await a.changeToken()).toBe(before);
    await b.put('n', '{}', epoch);
    expect(await a.changeToken()).not.toBe(before);
    const mine = await a.changeToken();
    await a.put('m', '{}', epoch);
    expect(await a.changeToken()).not.toBe(mine);
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

  it('waits for another process’s write lock without blocking reads, then writes', async () => {
    const path = join(dir, 'locked.db');
    const repo = createSqliteConfigRepository({ path });
    await repo.put('seen', '{}', epoch);
    const other = new Database(path);
    other.exec('BEGIN IMMEDIATE');
    let settled = false;
    const waiting = repo.put('n', '{"v":1}', epoch).finally(() => {
      settled = true;
    });
    // The event loop is free: reads are answered while the write waits.
    expect((await repo.get('seen'))?.json).toBe('{}');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(settled).toBe(false);
    other.exec('COMMIT');
    expect((await waiting).ok).toBe(true);
    other.close();
    await repo.close();
  });

  it('gives up with SQLITE_BUSY after the busy timeout', async () => {
    const path = join(dir, 'stuck.db');
    const repo = createSqliteConfigRepository({ path, busyTimeoutMs: 100 });
    const other = new Database(path);
    other.exec('BEGIN IMMEDIATE');
    await expect(repo.put('n', '{}', epoch)).rejects.toThrow(/locked|busy/i);
    other.exec('ROLLBACK');
    other.close();
    await repo.close();
  });

  it('migrates a version-2 database (WITHOUT ROWID table) keeping its data', async () => {
    const path = join(dir, 'v2.db');
    const old = new Database(path);
    for (const sql of MIGRATIONS.slice(0, 2)) {
      if (typeof sql === 'string') old.exec(sql);
    }
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
    // History from before the change table is unknown: older readers are told to re-list.
    expect(await repo.readLog({ after: 6, limit: 10 })).toEqual({
      reset: true,
      head: 7,
    });
    expect(await repo.readLog({ after: 7, limit: 10 })).toEqual({
      reset: false,
      head: 7,
      changes: [],
      events: [],
      through: 7,
    });
    // Every config stored before history gets a first revision: op put, by nobody.
    expect(await repo.revisions('kept', { from: 1, to: 1 })).toMatchObject([
      { meta: { rev: 1, op: 'put', by: null, id: 7 }, json: '{"allLinks":{}}' },
    ]);
    const put = await repo.put('kept', '{}', epoch);
    expect(put.ok && put.version).toBe(8);
    expect(await repo.count()).toBe(1);
    expect(
      (await repo.history('kept', { limit: 5 })).map((r) => r.rev),
    ).toEqual([2, 1]);
    await repo.close();
  });

  it('folds the changes table into the log, keeping ids: a Last-Event-ID from before resumes', async () => {
    const path = join(dir, 'fold.db');
    const repo = createSqliteConfigRepository({ path });
    const first = await repo.put('a', '{"v":1}', epoch);
    const second = await repo.put('b', '{"v":1}', epoch);
    await repo.close();
    if (!first.ok || !second.ok) throw new Error('write refused');
    // Back to the schema before the one log: a changes table holding every change, and one change (a
    // delete from before history, id 3) that no revision records, older than any reader below.
    const old = new Database(path);
    old.exec(`DROP TABLE log_events;
      CREATE TABLE changes (id INTEGER PRIMARY KEY, name TEXT NOT NULL, op TEXT NOT NULL,
      etag TEXT, updated_at TEXT NOT NULL, at INTEGER NOT NULL);
      INSERT INTO changes SELECT id, name, 'put', NULL, '', at FROM revisions`);
    // Back before the fold (the migrations after it, webhooks and publishing, run again too).
    old.exec(
      'DROP TABLE hook_deliveries; DROP TABLE hooks; DROP TABLE published',
    );
    old.pragma(`user_version = ${FOLD_MIGRATION}`);
    old.close();
    const upgraded = createSqliteConfigRepository({ path });
    const resumed = await upgraded.readLog({ after: first.version, limit: 10 });
    expect(resumed.reset || resumed.changes.map((c) => [c.id, c.name])).toEqual(
      [[second.version, 'b']],
    );
    const third = await upgraded.put('c', '{}', epoch);
    expect(third.ok && third.version).toBe(second.version + 1);
    await upgraded.close();
    const after = new Database(path);
    expect(
      after
        .prepare("SELECT name FROM sqlite_master WHERE name = 'changes'")
        .all(),
    ).toEqual([]);
    after.close();
  });

  it('moves the horizon past a change that no revision records when folding the changes table', async () => {
    const path = join(dir, 'fold-gap.db');
    const repo = createSqliteConfigRepository({ path });
    await repo.put('a', '{}', epoch);
    await repo.close();
    const old = new Database(path);
    old.exec(`DROP TABLE log_events;
      CREATE TABLE changes (id INTEGER PRIMARY KEY, name TEXT NOT NULL, op TEXT NOT NULL,
      etag TEXT, updated_at TEXT NOT NULL, at INTEGER NOT NULL);
      INSERT INTO changes VALUES (1, 'a', 'put', NULL, '', 0), (2, 'gone', 'delete', NULL, '', 0);
      UPDATE counters SET value = 2 WHERE key = 'version'`);
    // Back before the fold (the migrations after it, webhooks and publishing, run again too).
    old.exec(
      'DROP TABLE hook_deliveries; DROP TABLE hooks; DROP TABLE published',
    );
    old.pragma(`user_version = ${FOLD_MIGRATION}`);
    old.close();
    const upgraded = createSqliteConfigRepository({ path });
    expect(await upgraded.readLog({ after: 1, limit: 10 })).toEqual({
      reset: true,
      head: 2,
    });
    expect(await upgraded.readLog({ after: 2, limit: 10 })).toEqual({
      reset: false,
      head: 2,
      changes: [],
      events: [],
      through: 2,
    });
    await upgraded.close();
  });

  it('refuses a file written by a newer build, with a clear message', async () => {
    const path = join(dir, 'newer.db');
    await createSqliteConfigRepository({ path }).close();
    const later = new Database(path);
    later.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    later.close();
    expect(() => createSqliteConfigRepository({ path })).toThrow(
      /newer linkconfig/,
    );
  });
});

describe('sqlite publishing in the one log', () => {
  it('upgrades a file with the publish log of before: the records stay (without hiding), the table goes', async () => {
    const path = join(dir, `publish-upgrade-${++n}.db`);
    const repo = createSqliteConfigRepository({ path });
    await repo.close();
    // Back to the schema before: the publish log beside the one log, no hide_broken.
    const old = new Database(path);
    old.exec(`DROP TABLE published;
      ${PUBLISH_TABLES_SQL};
      INSERT INTO published VALUES ('m', 1, 1, '{"allLinks":{}}', 't', 't', '"1-0"', NULL, 't', NULL);
      INSERT INTO publish_events (name, op, rev, at) VALUES ('m', 'publish', 1, 't')`);
    old.pragma(`user_version = ${MIGRATIONS.indexOf(PUBLISH_ONE_LOG_SQL)}`);
    old.close();
    const upgraded = createSqliteConfigRepository({ path });
    expect(await upgraded.publish.get('m')).toMatchObject({
      rev: 1,
      hideBroken: false,
    });
    await upgraded.close();
    const after = new Database(path);
    expect(
      after
        .prepare("SELECT name FROM sqlite_master WHERE name = 'publish_events'")
        .all(),
    ).toEqual([]);
    after.close();
  });
});
