import type pg from 'pg';
import { migrateHistory } from './postgres-history-schema.js';

/** Quoted names of a repository's schema objects. */
export interface SchemaNames {
  readonly schema: string;
  readonly table: string;
  readonly revision: string;
  /** The change feed's own table of releases before the one log (dropped by `migrateHistory`). */
  readonly changes: string;
  readonly legacySequence: string;
  readonly revisions: string;
  /** Entries of the log that are not writes (`appendEvent`). */
  readonly events: string;
  readonly schemaVersion: string;
}

/**
 * Runs `steps` in one transaction under the migration lock, so concurrent first starts of several
 * instances do not race: every migration of the adapter (configs, keys) goes through here.
 */
export async function inMigration(
  pool: pg.Pool,
  steps: (client: pg.PoolClient) => Promise<void>,
): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(
      "SELECT pg_advisory_xact_lock(hashtext('linkconfig-migrate'))",
    );
    await steps(client);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Creates the schema and tables when missing (quoted names), and the revision row: it starts above every
 * version an older release handed out from its sequence, and the history before it counts as pruned.
 */
export async function migrate(
  pool: pg.Pool,
  names: SchemaNames,
): Promise<void> {
  const { schema, table, revision, events, legacySequence } = names;
  await inMigration(pool, async (client) => {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${table} (
         name text PRIMARY KEY COLLATE "C",
         json text NOT NULL,
         created_at text NOT NULL,
         updated_at text NOT NULL,
         version bigint NOT NULL
       )`,
    );
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${events} (
         id bigint PRIMARY KEY,
         name text NOT NULL COLLATE "C",
         type text NOT NULL,
         at bigint NOT NULL,
         by text,
         request_id text,
         detail text
       )`,
    );
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${revision} (
         only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
         value bigint NOT NULL,
         pruned_through bigint NOT NULL
       )`,
    );
    const { rows } = await client.query<{ legacy: string | null }>(
      'SELECT to_regclass($1) AS legacy',
      [legacySequence],
    );
    const fromSequence =
      rows[0]?.legacy === null
        ? '0'
        : `(SELECT last_value FROM ${legacySequence})`;
    await client.query(
      `INSERT INTO ${revision} (value, pruned_through)
       SELECT start, start FROM (
         SELECT GREATEST(COALESCE((SELECT MAX(version) FROM ${table}), 0), ${fromSequence}) AS start
       ) s
       WHERE NOT EXISTS (SELECT 1 FROM ${revision})`,
    );
    await migrateHistory(client, names);
  });
}
