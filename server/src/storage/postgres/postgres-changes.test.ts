import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigRepository } from '../config-repository.js';
import { logPageQuery } from './postgres-changes.js';
import {
  TEST_POSTGRES_URL,
  dropSchemas,
  openPostgres,
} from '../../../test/test-databases.js';

const prefix = `lc_test_${randomBytes(4).toString('hex')}`;
/** PostgreSQL's default `jit_above_cost`: a plan estimated above it is compiled before it runs. */
const JIT_ABOVE_COST = 100_000;

let client: pg.Client;
beforeAll(async () => {
  client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
});
afterAll(async () => {
  await client.end();
  await dropSchemas(prefix);
});

const tablesOf = (schema: string) => ({
  revision: `"${schema}".linkconfig_revision`,
  revisions: `"${schema}".linkconfig_revisions`,
  events: `"${schema}".linkconfig_log_events`,
});

/** The planner's estimate of the log page query after `after`, a page of `limit`. */
async function estimate(
  schema: string,
  after: number,
  limit: number,
): Promise<number> {
  const { rows } = await client.query<{
    'QUERY PLAN': [{ Plan: { 'Total Cost': number } }];
  }>(`EXPLAIN (FORMAT JSON) ${logPageQuery(tablesOf(schema))}`, [after, limit]);
  const plan = rows[0]?.['QUERY PLAN'][0]?.Plan;
  if (plan === undefined) throw new Error('no plan');
  return plan['Total Cost'];
}

describe('the PostgreSQL log page query', () => {
  let repo: ConfigRepository;
  const schema = `${prefix}_plan`;
  beforeAll(async () => {
    repo = await openPostgres(schema);
    for (let i = 0; i < 5; i++) await repo.put(`n${i}`, `{"i":${i}}`);
  });
  afterAll(() => repo.close());

  it('is estimated below the JIT threshold on tables never analyzed (a new database)', async () => {
    // Before: the counter row was guessed at ~1,800 rows, the join at 450,000 (cost ~135,000), and every
    // read of the feed spent tens of milliseconds compiling.
    expect(await estimate(schema, 0, 500)).toBeLessThan(JIT_ABOVE_COST);
    expect(await estimate(schema, 0, 1000)).toBeLessThan(JIT_ABOVE_COST);
  });

  it('stays bounded by the page on a large log, before and after ANALYZE', async () => {
    const large = `${prefix}_large`;
    await (await openPostgres(large)).close();
    const { revisions, events } = tablesOf(large);
    await client.query(
      `INSERT INTO ${revisions} (id, name, rev, op, at, size)
       SELECT 100 + g, 'bulk', g, 'put', 0, 2 FROM generate_series(1, 50000) g`,
    );
    await client.query(
      `INSERT INTO ${events} (id, name, type, at)
       SELECT 100000 + g, 'bulk', 'publish', 0 FROM generate_series(1, 20000) g`,
    );
    for (const after of [0, 25_000, 200_000]) {
      expect(await estimate(large, after, 500)).toBeLessThan(JIT_ABOVE_COST);
    }
    await client.query(`ANALYZE ${revisions}`);
    await client.query(`ANALYZE ${events}`);
    for (const after of [0, 25_000, 200_000]) {
      expect(await estimate(large, after, 500)).toBeLessThan(JIT_ABOVE_COST);
    }
  });

  it('still reads the head, the horizon and the page in id order', async () => {
    const page = await repo.readLog({ after: 2, limit: 2 });
    if (page.reset) throw new Error('unexpected reset');
    expect(page.changes.map((c) => c.id)).toEqual([3, 4]);
    expect(page.through).toBe(4);
    expect(page.head).toBe(await repo.head());
  });
});
