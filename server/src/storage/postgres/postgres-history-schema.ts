import type pg from 'pg';
import { keyframe } from '../log/revision-content.js';

/**
 * The schema version this build writes into `linkconfig_schema` (1: before history; 2: revisions; 3: the
 * revisions are the log, the changes table is gone; 4: each revision's summary). A database with a higher
 * one was written by a newer build and is refused, not used.
 */
export const POSTGRES_SCHEMA_VERSION = 4;

/**
 * Creates the revisions table (`revision-write.ts`; columns as in `history-rows.ts`) and the schema version
 * row, refusing a database of a newer build; run inside the migration's transaction. Configs stored before
 * history existed get a first revision (a keyframe of what is stored, op put, by nobody).
 */
export async function migrateHistory(
  client: pg.PoolClient,
  names: {
    readonly table: string;
    readonly revision: string;
    readonly revisions: string;
    readonly changes: string;
    readonly schemaVersion: string;
  },
): Promise<void> {
  const { schemaVersion } = names;
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
  if (found < 2) await createRevisions(client, names);
  await dropChanges(client, names);
  await addSummaries(client, names);
  await client.query(
    `INSERT INTO ${schemaVersion} (version) VALUES ($1)
     ON CONFLICT (only_row) DO UPDATE SET version = EXCLUDED.version`,
    [POSTGRES_SCHEMA_VERSION],
  );
}

/**
 * Schema 3, one write, one log (issue 28): the revisions are the change feed, and the feed's own table
 * goes. Its ids are the revisions' ids, so a client's Last-Event-ID from before still resumes. The horizon
 * (the column `pruned_through`) moves past every change whose name has no revision at or after it (a
 * write from before history was recorded, say a delete): a reader before it re-lists instead of missing it.
 */
async function dropChanges(
  client: pg.PoolClient,
  names: {
    readonly revision: string;
    readonly revisions: string;
    readonly changes: string;
  },
): Promise<void> {
  const { rows } = await client.query<{ found: string | null }>(
    'SELECT to_regclass($1) AS found',
    [names.changes],
  );
  if (rows[0]?.found === null || rows[0] === undefined) return;
  await client.query(
    `UPDATE ${names.revision} SET pruned_through = GREATEST(pruned_through, COALESCE((
       SELECT MAX(c.id) FROM ${names.changes} c WHERE NOT EXISTS (
         SELECT 1 FROM ${names.revisions} r WHERE r.name = c.name AND r.id >= c.id)), 0))`,
  );
  await client.query(`DROP TABLE ${names.changes}`);
}

/**
 * Schema 4: each revision's summary (`RevisionSummary`), null for the rows already there: nullable columns
 * without a default, so no table rewrite and the server starts at once on a long history; history fills
 * them in as it lists them (`history-service.ts`).
 */
async function addSummaries(
  client: pg.PoolClient,
  names: { readonly revisions: string },
): Promise<void> {
  await client.query(
    `ALTER TABLE ${names.revisions}
       ADD COLUMN IF NOT EXISTS added integer,
       ADD COLUMN IF NOT EXISTS removed integer,
       ADD COLUMN IF NOT EXISTS changed integer,
       ADD COLUMN IF NOT EXISTS links integer`,
  );
}

/** Schema 2: the revisions table, and a first revision of every config stored before it. */
async function createRevisions(
  client: pg.PoolClient,
  names: { readonly table: string; readonly revisions: string },
): Promise<void> {
  const { table, revisions } = names;
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
}
