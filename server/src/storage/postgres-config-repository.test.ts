import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { runConfigRepositoryContract } from './config-repository.contract.js';
import { createPostgresConfigRepository } from './postgres-config-repository.js';

/** The real PostgreSQL of the test machine (README: Tests). Each run uses its own schemas. */
const TEST_POSTGRES_URL =
  process.env['TEST_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

const prefix = `lc_test_${randomBytes(4).toString('hex')}`;
let n = 0;

afterAll(async () => {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  const { rows } = await client.query<{ nspname: string }>(
    'SELECT nspname FROM pg_namespace WHERE nspname LIKE $1',
    [`${prefix}%`],
  );
  for (const { nspname } of rows) {
    await client.query(`DROP SCHEMA "${nspname}" CASCADE`);
  }
  await client.end();
});

runConfigRepositoryContract('postgres', {
  create: () =>
    createPostgresConfigRepository({
      connectionString: TEST_POSTGRES_URL,
      schema: `${prefix}_${++n}`,
    }),
});

describe('postgres repository', () => {
  it('shares data and versions between two instances on one database', async () => {
    const schema = `${prefix}_shared`;
    const [a, b] = await Promise.all([
      createPostgresConfigRepository({
        connectionString: TEST_POSTGRES_URL,
        schema,
      }),
      createPostgresConfigRepository({
        connectionString: TEST_POSTGRES_URL,
        schema,
      }),
    ]);
    const first = await a.put('n', '{"z":1,"a":2}', new Date(0));
    expect((await b.get('n'))?.json).toBe('{"z":1,"a":2}');
    const second = await b.put('n', '{"b":1}', new Date(1000));
    expect(second.version).toBeGreaterThan(first.version);
    expect(second.createdAt).toBe(new Date(0).toISOString());
    expect(await a.version('n')).toBe(second.version);
    await Promise.all([a.close(), b.close()]);
  });

  it('rejects a connection it cannot make, with the driver’s reason', async () => {
    await expect(
      createPostgresConfigRepository({
        connectionString: 'postgres://127.0.0.1:1/none',
      }),
    ).rejects.toThrow();
  });
});
