import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { ConfigRepository } from '../src/storage/config-repository.js';
import { createPostgresConfigRepository } from '../src/storage/postgres/postgres-config-repository.js';
import { createSqliteConfigRepository } from '../src/storage/sqlite/sqlite-config-repository.js';

/** The real PostgreSQL of the test machine (README: Tests). */
export const TEST_POSTGRES_URL =
  process.env['TEST_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Opens repositories on one kind of real database; each `create` is a new, empty database. */
export interface TestDatabase {
  readonly kind: 'sqlite' | 'postgres';
  /** A new empty database, and its first connection. */
  create(): Promise<ConfigRepository>;
  /** Another connection (another server instance) to the database `repo` uses. */
  connect(repo: ConfigRepository): Promise<ConfigRepository>;
  /** Removes every database this helper made (files, schemas). */
  cleanup(): Promise<void>;
}

/** SQLite files in a temporary folder. */
export function sqliteDatabases(): TestDatabase {
  const dir = mkdtempSync(join(tmpdir(), 'linkconfig-test-'));
  const paths = new WeakMap<ConfigRepository, string>();
  let n = 0;
  const open = (path: string) => {
    const repo = createSqliteConfigRepository({ path, pollMs: 50 });
    paths.set(repo, path);
    return Promise.resolve(repo);
  };
  return {
    kind: 'sqlite',
    create: () => open(join(dir, `db-${++n}.sqlite`)),
    connect: (repo) => open(paths.get(repo) ?? ''),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A repository on `schema` of the test PostgreSQL (created if missing). */
export function openPostgres(schema: string): Promise<ConfigRepository> {
  return createPostgresConfigRepository({
    connectionString: TEST_POSTGRES_URL,
    schema,
    maxConnections: 4,
  });
}

/** Schemas of the test PostgreSQL, uniquely named for this run and dropped by `cleanup`. */
export function postgresDatabases(): TestDatabase {
  const prefix = `lc_t${randomBytes(4).toString('hex')}`;
  const schemas = new WeakMap<ConfigRepository, string>();
  let n = 0;
  const open = async (schema: string) => {
    const repo = await openPostgres(schema);
    schemas.set(repo, schema);
    return repo;
  };
  return {
    kind: 'postgres',
    create: () => open(`${prefix}_${++n}`),
    connect: (repo) => open(schemas.get(repo) ?? ''),
    cleanup: () => dropSchemas(prefix),
  };
}

/** Drops every schema whose name starts with `prefix`. */
export async function dropSchemas(prefix: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ nspname: string }>(
      'SELECT nspname FROM pg_namespace WHERE nspname LIKE $1',
      [`${prefix}%`],
    );
    for (const { nspname } of rows) {
      await client.query(`DROP SCHEMA "${nspname}" CASCADE`);
    }
  } finally {
    await client.end();
  }
}
