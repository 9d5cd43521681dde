/**
 * Publish records in PostgreSQL (`linkconfig_published` of the repository's schema). A publish or
 * unpublish is one write of the repository's writer: under the revision lock, the record's statement and
 * the entry of the one log (`linkconfig_log_events`, the same id counter as writes) go out together in
 * one transaction, so both are stored or neither.
 */
import type pg from 'pg';
import { compareNames } from '../config-repository.js';
import { appendLogEvent } from '../config-write.js';
import {
  originsOfRows,
  PUBLISH_COLUMNS,
  publishLogEntry,
  publishOfRow,
  publishValues,
  unpublishLogEntry,
} from '../publish-store.js';
import type { OriginsRow, PublishRow, PublishStore } from '../publish-store.js';
import { inMigration } from './postgres-migrate.js';
import type { PostgresWrite } from './postgres-writer.js';

/** The tables of {@link createPostgresPublish}. */
export interface PublishTables {
  readonly records: string;
  /** The publish log of earlier releases, dropped by the migration (the one log holds it all). */
  readonly legacyEvents: string;
}

/** The table's migration, under the adapter's migration lock. */
export async function migratePublish(
  pool: pg.Pool,
  { records, legacyEvents }: PublishTables,
): Promise<void> {
  await inMigration(pool, async (client) => {
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${records} (
         name text PRIMARY KEY COLLATE "C",
         rev bigint NOT NULL,
         version bigint NOT NULL,
         json text NOT NULL,
         created_at text NOT NULL,
         updated_at text NOT NULL,
         etag text NOT NULL,
         origins text,
         published_at text NOT NULL,
         published_by text
       )`,
    );
    await client.query(
      `ALTER TABLE ${records} ADD COLUMN IF NOT EXISTS hide_broken smallint NOT NULL DEFAULT 0`,
    );
    await client.query(`DROP TABLE IF EXISTS ${legacyEvents}`);
  });
}

/** A {@link PublishStore} on `pool`, writing through the repository's `write`. */
export function createPostgresPublish(
  pool: pg.Pool,
  options: {
    readonly records: string;
    readonly write: PostgresWrite;
    readonly isClosed: () => boolean;
  },
): PublishStore {
  const { records, write, isClosed } = options;
  const updates = PUBLISH_COLUMNS.split(',')
    .map((c) => c.trim())
    .filter((c) => c !== 'name')
    .map((c) => `${c} = EXCLUDED.${c}`)
    .join(', ');
  const open = (): void => {
    if (isClosed()) throw new Error('repository is closed');
  };
  return {
    get: async (name) => {
      open();
      const { rows } = await pool.query<PublishRow>(
        `SELECT ${PUBLISH_COLUMNS} FROM ${records} WHERE name = $1`,
        [name],
      );
      const row = rows[0];
      return row === undefined ? null : publishOfRow(row);
    },
    version: async (name) => {
      open();
      const { rows } = await pool.query<{
        version: string;
        hide_broken: number;
      }>(`SELECT version, hide_broken FROM ${records} WHERE name = $1`, [name]);
      const row = rows[0];
      return row === undefined
        ? null
        : {
            version: Number(row.version),
            hideBroken: Number(row.hide_broken) === 1,
          };
    },
    versions: async () => {
      open();
      const { rows } = await pool.query<{
        name: string;
        version: string;
        hide_broken: number;
      }>(`SELECT name, version, hide_broken FROM ${records}`);
      return rows
        .map(({ name, version, hide_broken }) => ({
          name,
          version: Number(version),
          hideBroken: Number(hide_broken) === 1,
        }))
        .sort((a, b) => compareNames(a.name, b.name));
    },
    origins: async (name) => {
      open();
      const { rows } =
        name === undefined
          ? await pool.query<OriginsRow>(`SELECT name, origins FROM ${records}`)
          : await pool.query<OriginsRow>(
              `SELECT name, origins FROM ${records} WHERE name = $1`,
              [name],
            );
      return originsOfRows(rows);
    },
    set: (record, requestId) =>
      write(record.name, (tx, { step }) => {
        step((param) => {
          const values = publishValues(record).map(param).join(', ');
          return `INSERT INTO ${records} (${PUBLISH_COLUMNS}) VALUES (${values})
            ON CONFLICT (name) DO UPDATE SET ${updates}`;
        });
        return appendLogEvent(tx, publishLogEntry(record, requestId));
      }),
    remove: (name, origin) =>
      write(
        name,
        (tx, { step, prepared }) => {
          // Read under the lock that every publish write takes: no other one runs in between.
          const rev = prepared as number | null;
          if (rev === null) return null;
          step((param) => `DELETE FROM ${records} WHERE name = ${param(name)}`);
          return appendLogEvent(tx, unpublishLogEntry(name, rev, origin));
        },
        {
          prepare: async (client) => {
            const { rows } = await client.query<{ rev: string }>(
              `SELECT rev FROM ${records} WHERE name = $1`,
              [name],
            );
            return rows[0] === undefined ? null : Number(rows[0].rev);
          },
        },
      ),
  };
}
