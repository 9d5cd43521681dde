import type pg from 'pg';
import { keyframe } from '../log/revision-content.js';

/**
 * The schema version this build writes into `linkconfig_schema` (1: before history; 2: revisions). A
 * database with a higher one was written by a newer build and is refused, not used.
 */
export const POSTGRES_SCHEMA_VERSION = 2;

/**
 * Creates the revisions table (`revision-write.ts`; columns as in `history-rows.ts`) and the schema version
 * row, refusing a database of a newer build; run inside the migration's transaction. Configs stored before
 * history existed get a first revision (a keyframe of what is stored, op put, by nobody).
 */
export async function migrateHistory(
  client: pg.PoolClient,
  names: {
    readonly table: string;
    readonly revisions: string;
    readonly schemaVersion: string;
  },
): Promise<void> {
  const { table, revisions, schemaVersion } = names;
  await client.query(
    `CREATE TABLE IF NOT EXISTS ${schemaVersion} (
       only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
       version integer NOT NULL
     )`,
  );
  const { rows } = await client.query<{ version: number }>(
    `SELECT version FROM ${schemaVersion}`,
  );
  const found = rows[0]?.version ?? 1;
  if (found > POSTGRES_SCHEMA_VERSION) {
    throw new Error(
      `the database was written by a newer linkconfig (schema ${found}; this build knows ${POSTGRES_SCHEMA_VERSION}): upgrade the server to open it`,
    );
  }
  if (found === POSTGRES_SCHEMA_VERSION) return;
  await client.query(
    `CREATE TABLE IF NOT EXISTS ${revisions} (
       id bigint PRIMARY KEY,
       name text NOT NULL COLLATE "C",
       rev integer NOT NULL,
       op text NOT NULL,
       at bigint NOT NULL,
       by text,
       request_id text,
       size integer,
       base integer,
       head integer,
       tail integer,
       chain integer,
       data bytea,
       UNIQUE (name, rev)
     )`,
  );
  const configs = await client.query<{
    name: string;
    json: string;
    updated_at: string;
    version: string;
  }>(`SELECT name, json, updated_at, version FROM ${table}`);
  for (const row of configs.rows) {
    await client.query(
      `INSERT INTO ${revisions} (id, name, rev, op, at, size, base, head, tail, chain, data)
       VALUES ($1, $2, 1, 'put', $3, $4, 1, 0, 0, 0, $5) ON CONFLICT DO NOTHING`,
      [
        row.version,
        row.name,
        Date.parse(row.updated_at) || 0,
        Buffer.byteLength(row.json, 'utf8'),
        Buffer.from(keyframe(1, row.json).data),
      ],
    );
  }
  await client.query(
    `INSERT INTO ${schemaVersion} (version) VALUES ($1)
     ON CONFLICT (only_row) DO UPDATE SET version = EXCLUDED.version`,
    [POSTGRES_SCHEMA_VERSION],
  );
}
