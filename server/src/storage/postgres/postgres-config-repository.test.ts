import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { runConfigRepositoryContract } from '../contract/config-repository.contract.js';
import type { ConfigRepository } from '../config-repository.js';
import { openRepository } from '../open-repository.js';
import { createPostgresConfigRepository } from './postgres-config-repository.js';
import {
  TEST_POSTGRES_URL,
  dropSchemas,
  openPostgres,
} from '../../../test/test-databases.js';

const prefix = `lc_test_${randomBytes(4).toString('hex')}`;
let n = 0;

afterAll(() => dropSchemas(prefix));

/** The schema each repository of the contract run uses, for a second instance on it. */
const schemas = new WeakMap<ConfigRepository, string>();
const open = async (schema: string): Promise<ConfigRepository> => {
  const repo = await openPostgres(schema);
  schemas.set(repo, schema);
  return repo;
};

runConfigRepositoryContract('postgres', {
  create: () => open(`${prefix}_${++n}`),
  connect: (repo) => open(schemas.get(repo) ?? ''),
});

describe('postgres repository', () => {
  it('shares data and versions between two instances on one database', async () => {
    const schema = `${prefix}_shared`;
    const [a, b] = await Promise.all([open(schema), open(schema)]);
    const first = await a.put('n', '{"z":1,"a":2}', { now: () => new Date(0) });
    expect((await b.get('n'))?.json).toBe('{"z":1,"a":2}');
    const second = await b.put('n', '{"b":1}', {
      now: () => new Date(1000),
    });
    if (!first.ok || !second.ok) throw new Error('write refused');
    expect(second.version).toBeGreaterThan(first.version);
    expect(second.createdAt).toBe(new Date(0).toISOString());
    expect(await a.version('n')).toBe(second.version);
    await Promise.all([a.close(), b.close()]);
  });

  it('keeps createdAt ≤ updatedAt under concurrent PUT and DELETE of one name on two instances (300 rounds)', async () => {
    const schema = `${prefix}_race`;
    const [a, b] = await Promise.all([open(schema), open(schema)]);
    // Instance b's clock runs 50 ms behind: a writer must never stamp below what is stored.
    const late = { now: () => new Date(Date.now() - 50) };
    const broken: string[] = [];
    for (let round = 0; round < 300; round++) {
      await Promise.all([
        a.put('n', `{"r":${round}}`),
        b.remove('n', late),
        b.put('n', `{"r":${round}}`, late),
        a.put('n', `{"r":${round}}`),
      ]);
      const row = await a.get('n');
      if (row !== null && row.createdAt > row.updatedAt) {
        broken.push(`${round}: ${row.createdAt} > ${row.updatedAt}`);
      }
    }
    expect(broken).toEqual([]);
    const page = await a.readLog({ after: 0, limit: 2000 });
    if (page.reset) throw new Error('history lost');
    // Ids are gap-free and in order: every committed change is there once.
    expect(page.changes.map((c) => c.id)).toEqual(
      page.changes.map((_, i) => i + 1),
    );
    // History: one revision per committed change of the name, dense, in change order.
    const revisions = await a.history('n', { limit: 2000 });
    expect(revisions.map((r) => r.id).reverse()).toEqual(
      page.changes.map((c) => c.id),
    );
    expect(revisions.map((r) => r.rev).reverse()).toEqual(
      revisions.map((_, i) => i + 1),
    );
    await Promise.all([a.close(), b.close()]);
  });

  it('migrates a database of the previous release, starting revisions above its sequence', async () => {
    const schema = `${prefix}_legacy`;
    const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await client.connect();
    await client.query(`CREATE SCHEMA "${schema}"`);
    await client.query(
      `CREATE SEQUENCE "${schema}".linkconfig_version_seq START 40`,
    );
    await client.query(`SELECT nextval('"${schema}".linkconfig_version_seq')`);
    await client.query(`CREATE TABLE "${schema}".linkconfig_configs (
      name text PRIMARY KEY COLLATE "C", json text NOT NULL, created_at text NOT NULL,
      updated_at text NOT NULL, version bigint NOT NULL)`);
    await client.query(
      `INSERT INTO "${schema}".linkconfig_configs VALUES ('kept', '{}', 'c', 'u', 12)`,
    );
    await client.end();
    const repo = await open(schema);
    expect(await repo.head()).toBe(40);
    expect((await repo.get('kept'))?.version).toBe(12);
    expect((await repo.readLog({ after: 39, limit: 10 })).reset).toBe(true);
    // Every config stored before history gets a first revision: op put, by nobody.
    expect(await repo.revisions('kept', { from: 1, to: 1 })).toMatchObject([
      { meta: { rev: 1, op: 'put', by: null, id: 12 }, json: '{}' },
    ]);
    const put = await repo.put('kept', '{"v":2}');
    expect(put.ok && put.version).toBe(41);
    expect(
      (await repo.history('kept', { limit: 5 })).map((r) => r.rev),
    ).toEqual([2, 1]);
    await repo.close();
  });

  it('folds the changes table of schema 2 into the log, keeping ids: a Last-Event-ID from before resumes', async () => {
    const schema = `${prefix}_fold`;
    const repo = await open(schema);
    const first = await repo.put('a', '{"v":1}');
    const second = await repo.put('b', '{"v":1}');
    await repo.close();
    if (!first.ok || !second.ok) throw new Error('write refused');
    // Back to schema 2 as the previous release left it: a changes table holding every change, and one
    // change (a delete from before history) that no revision records.
    const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await client.connect();
    const q = (name: string) => `"${schema}".${name}`;
    await client.query(`CREATE TABLE ${q('linkconfig_changes')} (
      id bigint PRIMARY KEY, name text NOT NULL COLLATE "C", op text NOT NULL, etag text,
      updated_at text NOT NULL, at bigint NOT NULL)`);
    await client.query(
      `INSERT INTO ${q('linkconfig_changes')} SELECT id, name, 'put', NULL, '', at FROM ${q('linkconfig_revisions')}`,
    );
    await client.query(`UPDATE ${q('linkconfig_schema')} SET version = 2`);
    await client.end();
    const upgraded = await open(schema);
    const resumed = await upgraded.readLog({ after: first.version, limit: 10 });
    expect(resumed.reset || resumed.changes.map((c) => [c.id, c.name])).toEqual(
      [[second.version, 'b']],
    );
    const third = await upgraded.put('c', '{}');
    expect(third.ok && third.version).toBe(second.version + 1);
    await upgraded.close();
    const check = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await check.connect();
    const { rows } = await check.query<{ found: string | null }>(
      'SELECT to_regclass($1) AS found',
      [`"${schema}".linkconfig_changes`],
    );
    await check.end();
    expect(rows[0]?.found).toBeNull();
  });

  it('moves the horizon past a change of schema 2 that no revision records', async () => {
    const schema = `${prefix}_fold_gap`;
    const repo = await open(schema);
    await repo.put('a', '{}');
    await repo.close();
    const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await client.connect();
    const q = (name: string) => `"${schema}".${name}`;
    await client.query(`CREATE TABLE ${q('linkconfig_changes')} (
      id bigint PRIMARY KEY, name text NOT NULL COLLATE "C", op text NOT NULL, etag text,
      updated_at text NOT NULL, at bigint NOT NULL)`);
    // Change 2 deleted a config history never saw; the counter handed out 2.
    await client.query(
      `INSERT INTO ${q('linkconfig_changes')} VALUES (1, 'a', 'put', NULL, '', 0), (2, 'gone', 'delete', NULL, '', 0)`,
    );
    await client.query(`UPDATE ${q('linkconfig_revision')} SET value = 2`);
    await client.query(`UPDATE ${q('linkconfig_schema')} SET version = 2`);
    await client.end();
    const upgraded = await open(schema);
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

  it('refuses a database written by a newer build, with a clear message', async () => {
    const schema = `${prefix}_newer`;
    await (await open(schema)).close();
    const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await client.connect();
    await client.query(`UPDATE "${schema}".linkconfig_schema SET version = 99`);
    await client.end();
    await expect(open(schema)).rejects.toThrow(/newer linkconfig \(schema 99/);
  });

  it('delivers another instance’s write to watchers after its LISTEN connection was cut', async () => {
    const schema = `${prefix}_listen`;
    const [a, b] = await Promise.all([open(schema), open(schema)]);
    const woken = vi.fn();
    const stop = b.watch(woken);
    await vi.waitFor(() => expect(woken).toHaveBeenCalled());
    const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await admin.connect();
    // Cut every connection that listens on this schema's channel (b's dedicated one).
    await admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE query LIKE 'LISTEN "linkconfig_%' AND pid <> pg_backend_pid()`,
    );
    await admin.end();
    woken.mockClear();
    await a.put('after-cut', '{}');
    await vi.waitFor(() => expect(woken).toHaveBeenCalled(), {
      timeout: 5000,
    });
    const page = await b.readLog({ after: 0, limit: 10 });
    expect(page.reset || page.changes.map((c) => c.name)).toEqual([
      'after-cut',
    ]);
    stop();
    await Promise.all([a.close(), b.close()]);
  });

  it('opens the schema that DATABASE_URL names, creating it when missing', async () => {
    const schema = `${prefix}_from_url`;
    const repo = await openRepository(`${TEST_POSTGRES_URL}?schema=${schema}`);
    await repo.put('n', '{"v":1}');
    await repo.close();
    const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await client.connect();
    const { rows } = await client.query<{ json: string }>(
      `SELECT json FROM "${schema}".linkconfig_configs WHERE name = 'n'`,
    );
    await client.end();
    expect(rows).toEqual([{ json: '{"v":1}' }]);
  });

  it('rejects a connection it cannot make, with the driver’s reason', async () => {
    await expect(
      createPostgresConfigRepository({
        connectionString: 'postgres://127.0.0.1:1/none',
      }),
    ).rejects.toThrow();
  });
});
