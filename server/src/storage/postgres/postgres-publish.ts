/**
 * Publish records in PostgreSQL (`linkconfig_published` and `linkconfig_publish_events` of the repository's
 * schema). A publish or unpublish is one transaction: the record and its event together.
 */
import type pg from 'pg';
import { compareNames } from '../config-repository.js';
import {
  eventOfRow,
  eventValues,
  PUBLISH_COLUMNS,
  publishOfRow,
  publishValues,
} from '../publish-store.js';
import type {
  PublishEvent,
  PublishEventRow,
  PublishRow,
  PublishStore,
} from '../publish-store.js';
import { inMigration } from './postgres-migrate.js';

/** The tables of {@link createPostgresPublish}. */
export interface PublishTables {
  readonly records: string;
  readonly events: string;
}

/** The tables' migration, under the adapter's migration lock. */
export async function migratePublish(
  pool: pg.Pool,
  { records, events }: PublishTables,
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
      `CREATE TABLE IF NOT EXISTS ${events} (
         id bigserial PRIMARY KEY,
         name text NOT NULL COLLATE "C",
         op text NOT NULL,
         rev bigint NOT NULL,
         at text NOT NULL,
         by text,
         request_id text
       )`,
    );
  });
}

const EVENT_COLUMNS = 'id, name, op, rev, at, by, request_id';

/** A {@link PublishStore} on `pool`. */
export function createPostgresPublish(
  pool: pg.Pool,
  tables: PublishTables & { readonly isClosed: () => boolean },
): PublishStore {
  const { records, events, isClosed } = tables;
  const placeholders = PUBLISH_COLUMNS.split(',')
    .map((_, i) => `$${i + 1}`)
    .join(', ');
  const updates = PUBLISH_COLUMNS.split(',')
    .map((c) => c.trim())
    .filter((c) => c !== 'name')
    .map((c) => `${c} = EXCLUDED.${c}`)
    .join(', ');
  const open = (): void => {
    if (isClosed()) throw new Error('repository is closed');
  };
  const insertEvent = `INSERT INTO ${events} (name, op, rev, at, by, request_id)
    VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${EVENT_COLUMNS}`;
  /** Runs `steps` in one transaction. */
  const inTransaction = async <T>(
    steps: (client: pg.PoolClient) => Promise<T>,
  ): Promise<T> => {
    open();
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const result = await steps(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  };
  const logged = async (
    client: pg.PoolClient,
    event: Omit<PublishEvent, 'id'>,
  ): Promise<PublishEvent> => {
    const { rows } = await client.query<PublishEventRow>(
      insertEvent,
      eventValues(event),
    );
    const row = rows[0];
    if (row === undefined) throw new Error('publish event not stored');
    return eventOfRow(row);
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
      const { rows } = await pool.query<{ version: string }>(
        `SELECT version FROM ${records} WHERE name = $1`,
        [name],
      );
      const row = rows[0];
      return row === undefined ? null : Number(row.version);
    },
    versions: async () => {
      open();
      const { rows } = await pool.query<{ name: string; version: string }>(
        `SELECT name, version FROM ${records}`,
      );
      return rows
        .map(({ name, version }) => ({ name, version: Number(version) }))
        .sort((a, b) => compareNames(a.name, b.name));
    },
    set: (record, requestId) =>
      inTransaction(async (client) => {
        await client.query(
          `INSERT INTO ${records} (${PUBLISH_COLUMNS}) VALUES (${placeholders})
           ON CONFLICT (name) DO UPDATE SET ${updates}`,
          publishValues(record),
        );
        return logged(client, {
          name: record.name,
          op: 'publish',
          rev: record.rev,
          at: record.publishedAt,
          by: record.publishedBy,
          requestId: requestId ?? null,
        });
      }),
    remove: (name, origin) =>
      inTransaction(async (client) => {
        const { rows } = await client.query<{ rev: string }>(
          `DELETE FROM ${records} WHERE name = $1 RETURNING rev`,
          [name],
        );
        const found = rows[0];
        if (found === undefined) return null;
        return logged(client, {
          name,
          op: 'unpublish',
          rev: Number(found.rev),
          at: origin.at,
          by: origin.by,
          requestId: origin.requestId ?? null,
        });
      }),
    events: async (afterId, limit) => {
      open();
      const { rows } = await pool.query<PublishEventRow>(
        `SELECT ${EVENT_COLUMNS} FROM ${events} WHERE id > $1 ORDER BY id LIMIT $2`,
        [afterId, limit],
      );
      return rows.map(eventOfRow);
    },
    head: async () => {
      open();
      const { rows } = await pool.query<{ head: string }>(
        `SELECT COALESCE(MAX(id), 0) AS head FROM ${events}`,
      );
      return Number(rows[0]?.head ?? 0);
    },
  };
}
