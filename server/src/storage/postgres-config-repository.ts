import pg from 'pg';
import { compareNames } from './config-repository.js';
import type {
  ConfigRepository,
  NameVersion,
  PutResult,
  StoredConfig,
} from './config-repository.js';

/** Options of {@link createPostgresConfigRepository}. */
export interface PostgresRepositoryOptions {
  /** `postgres://…` connection string. */
  readonly connectionString: string;
  /** Schema holding the tables (created when missing); default `public`. */
  readonly schema?: string;
  /** Pool size (default 10). */
  readonly maxConnections?: number;
}

const quoteIdent = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/**
 * Storage for several server instances sharing one PostgreSQL database. Config JSON is kept as `text`,
 * not `jsonb`, because `jsonb` sorts object keys and catalog order (expression doc §7) depends on them.
 * Versions come from one sequence, so every write anywhere gets a new, never reused version.
 */
export async function createPostgresConfigRepository(
  options: PostgresRepositoryOptions,
): Promise<ConfigRepository> {
  const schema = quoteIdent(options.schema ?? 'public');
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.maxConnections ?? 10,
  });
  // An idle client that loses its connection must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  const table = `${schema}.linkconfig_configs`;
  const sequence = `${schema}.linkconfig_version_seq`;
  try {
    await migrate(pool, { schema, table, sequence });
  } catch (error) {
    await pool.end();
    throw error;
  }

  let closed = false;
  const query = async <R extends pg.QueryResultRow>(
    text: string,
    values: unknown[] = [],
  ): Promise<pg.QueryResult<R>> => {
    if (closed) throw new Error('repository is closed');
    return pool.query<R>(text, values);
  };
  const byName = (a: { name: string }, b: { name: string }): number =>
    compareNames(a.name, b.name);

  return {
    list: async () =>
      (await query<{ name: string }>(`SELECT name FROM ${table}`)).rows
        .map((r) => r.name)
        .sort(compareNames),
    listVersions: async (): Promise<NameVersion[]> =>
      (
        await query<{ name: string; version: string }>(
          `SELECT name, version FROM ${table}`,
        )
      ).rows
        .map((r) => ({ name: r.name, version: Number(r.version) }))
        .sort(byName),
    get: async (name): Promise<StoredConfig | null> => {
      const { rows } = await query<{
        json: string;
        created_at: string;
        updated_at: string;
        version: string;
      }>(
        `SELECT json, created_at, updated_at, version FROM ${table} WHERE name = $1`,
        [name],
      );
      const row = rows[0];
      return row === undefined
        ? null
        : {
            name,
            json: row.json,
            createdAt: row.created_at,
            updatedAt: row.updated_at,
            version: Number(row.version),
          };
    },
    version: async (name) => {
      const { rows } = await query<{ version: string }>(
        `SELECT version FROM ${table} WHERE name = $1`,
        [name],
      );
      return rows[0] === undefined ? null : Number(rows[0].version);
    },
    put: async (name, json, now): Promise<PutResult> => {
      const at = now.toISOString();
      // One statement: atomic, and `xmax = 0` tells an insert from an update.
      const { rows } = await query<{
        created_at: string;
        version: string;
        inserted: boolean;
      }>(
        `INSERT INTO ${table} (name, json, created_at, updated_at, version)
         VALUES ($1, $2, $3, $3, nextval('${sequence}'))
         ON CONFLICT (name) DO UPDATE SET json = EXCLUDED.json, updated_at = EXCLUDED.updated_at,
           version = EXCLUDED.version
         RETURNING created_at, version, (xmax = 0) AS inserted`,
        [name, json, at],
      );
      const row = rows[0];
      if (row === undefined) throw new Error('upsert returned no row');
      return {
        createdAt: row.created_at,
        updatedAt: at,
        version: Number(row.version),
        created: row.inserted,
      };
    },
    remove: async (name) =>
      ((await query(`DELETE FROM ${table} WHERE name = $1`, [name])).rowCount ??
        0) > 0,
    // Other instances write without telling us; every read asks the database.
    changeToken: () => null,
    count: async () =>
      Number(
        (await query<{ n: string }>(`SELECT COUNT(*) AS n FROM ${table}`))
          .rows[0]?.n ?? 0,
      ),
    close: async () => {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}

/** Creates the schema, sequence and table when missing (quoted names). */
async function migrate(
  pool: pg.Pool,
  names: { schema: string; table: string; sequence: string },
): Promise<void> {
  const { schema, table, sequence } = names;
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    // Serializes concurrent first starts of several instances.
    await client.query(
      "SELECT pg_advisory_xact_lock(hashtext('linkconfig-migrate'))",
    );
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await client.query(`CREATE SEQUENCE IF NOT EXISTS ${sequence}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${table} (
         name text PRIMARY KEY COLLATE "C",
         json text NOT NULL,
         created_at text NOT NULL,
         updated_at text NOT NULL,
         version bigint NOT NULL
       )`,
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
