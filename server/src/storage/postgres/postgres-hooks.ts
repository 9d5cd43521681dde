/**
 * Hooks in PostgreSQL (`linkconfig_hooks` and `linkconfig_hook_deliveries` of the repository's schema).
 * A claim is one statement (`FOR UPDATE SKIP LOCKED` picks due hooks no other claim is taking, then leases
 * them), so two instances never lease one hook; the lease holder alone moves its cursor.
 */
import type pg from 'pg';
import {
  DELIVERY_COLUMNS,
  deliveryOfRow,
  deliveryValues,
  HOOK_COLUMNS,
  hookOfRow,
  hookValues,
} from '../hook-store.js';
import type { DeliveryRow, HookRow, HookStore } from '../hook-store.js';
import { inMigration } from './postgres-migrate.js';

/** The tables' names (quoted, schema-qualified). */
export interface HookTables {
  readonly hooks: string;
  readonly deliveries: string;
}

/** The tables' migration, under the adapter's migration lock. */
export async function migrateHooks(
  pool: pg.Pool,
  { hooks, deliveries }: HookTables,
): Promise<void> {
  await inMigration(pool, async (client) => {
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${hooks} (
         id text PRIMARY KEY COLLATE "C",
         url text NOT NULL,
         events text NOT NULL,
         configs text NOT NULL,
         secret text,
         created_at text NOT NULL,
         cursor bigint NOT NULL,
         attempts integer NOT NULL,
         failing_since text,
         next_at bigint NOT NULL,
         last_error text,
         lease_owner text,
         lease_until bigint
       )`,
    );
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${deliveries} (
         seq bigserial PRIMARY KEY,
         hook_id text NOT NULL COLLATE "C",
         event_id bigint NOT NULL,
         type text NOT NULL,
         attempt integer NOT NULL,
         at text NOT NULL,
         status integer,
         error text,
         duration_ms integer NOT NULL
       )`,
    );
    // An index is made in its table's schema: its name is never qualified.
    await client.query(
      `CREATE INDEX IF NOT EXISTS linkconfig_hook_deliveries_hook ON ${deliveries} (hook_id, seq)`,
    );
  });
}

/** Options of {@link createPostgresHooks}. */
export interface PostgresHooksOptions {
  readonly tables: HookTables;
  readonly isClosed: () => boolean;
}

/** A {@link HookStore} on `pool`. */
export function createPostgresHooks(
  pool: pg.Pool,
  { tables, isClosed }: PostgresHooksOptions,
): HookStore {
  const { hooks, deliveries } = tables;
  const query = async <R extends pg.QueryResultRow>(
    text: string,
    params: unknown[] = [],
  ): Promise<pg.QueryResult<R>> => {
    if (isClosed()) throw new Error('repository is closed');
    return pool.query<R>(text, params);
  };
  const marks = (from: number, n: number): string =>
    Array.from({ length: n }, (_, i) => `$${from + i}`).join(', ');
  const hookRows = async (where: string, params: unknown[]) =>
    (
      await query<HookRow>(
        `SELECT ${HOOK_COLUMNS} FROM ${hooks} ${where}`,
        params,
      )
    ).rows.map(hookOfRow);
  const inTransaction = async <T>(
    steps: (client: pg.PoolClient) => Promise<T>,
  ): Promise<T> => {
    if (isClosed()) throw new Error('repository is closed');
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
  const columns = HOOK_COLUMNS.split(', ');
  return {
    insert: async (hook) => {
      await query(
        `INSERT INTO ${hooks} (${HOOK_COLUMNS}) VALUES (${marks(1, columns.length)})`,
        hookValues(hook),
      );
    },
    list: () => hookRows('ORDER BY created_at, id', []),
    anyDeliverable: async () =>
      (
        await query<{ any: boolean }>(
          `SELECT EXISTS (SELECT 1 FROM ${hooks} WHERE secret IS NOT NULL) AS any`,
        )
      ).rows[0]?.any === true,
    get: async (id) => (await hookRows('WHERE id = $1', [id]))[0] ?? null,
    remove: (id) =>
      inTransaction(async (client) => {
        await client.query(`DELETE FROM ${deliveries} WHERE hook_id = $1`, [
          id,
        ]);
        const { rowCount } = await client.query(
          `DELETE FROM ${hooks} WHERE id = $1`,
          [id],
        );
        return (rowCount ?? 0) > 0;
      }),
    claim: async (c) =>
      (
        await query<HookRow>(
          `WITH due AS (
             SELECT id FROM ${hooks}
             WHERE secret IS NOT NULL AND cursor < $1 AND next_at <= $2
               AND (lease_until IS NULL OR lease_until <= $2 OR lease_owner = $3)
             ORDER BY next_at, id
             LIMIT $4
             FOR UPDATE SKIP LOCKED
           )
           UPDATE ${hooks} h SET lease_owner = $3, lease_until = $5
           FROM due WHERE h.id = due.id
           RETURNING ${columns.map((c) => `h.${c}`).join(', ')}`,
          [c.head, c.now, c.owner, c.limit, c.until],
        )
      ).rows
        .map(hookOfRow)
        .sort((a, b) => a.nextAt - b.nextAt || (a.id < b.id ? -1 : 1)),
    advance: async (id, p, { owner, release }) =>
      ((
        await query(
          `UPDATE ${hooks} SET cursor = $1, attempts = $2, failing_since = $3, next_at = $4,
             last_error = $5,
             lease_owner = CASE WHEN $6::boolean THEN NULL ELSE lease_owner END,
             lease_until = CASE WHEN $6::boolean THEN NULL ELSE lease_until END
           WHERE id = $7 AND lease_owner = $8`,
          [
            p.cursor,
            p.attempts,
            p.failingSince,
            p.nextAt,
            p.lastError,
            release,
            id,
            owner,
          ],
        )
      ).rowCount ?? 0) > 0,
    record: async (list, keep) => {
      if (list.length === 0) return;
      await inTransaction(async (client) => {
        for (const d of list) {
          await client.query(
            `INSERT INTO ${deliveries} (hook_id, ${DELIVERY_COLUMNS})
             SELECT $1::text, $2::bigint, $3::text, $4::integer, $5::text, $6::integer, $7::text, $8::integer
             WHERE EXISTS (SELECT 1 FROM ${hooks} WHERE id = $1)`,
            deliveryValues(d),
          );
        }
        for (const id of new Set(list.map((d) => d.hookId))) {
          await client.query(
            `DELETE FROM ${deliveries} WHERE hook_id = $1 AND seq <= (
               SELECT seq FROM ${deliveries} WHERE hook_id = $1 ORDER BY seq DESC LIMIT 1 OFFSET $2
             )`,
            [id, keep],
          );
        }
      });
    },
    deliveries: async (id, limit) =>
      (
        await query<DeliveryRow>(
          `SELECT ${DELIVERY_COLUMNS} FROM ${deliveries} WHERE hook_id = $1 ORDER BY seq DESC LIMIT $2`,
          [id, limit],
        )
      ).rows.map(deliveryOfRow),
    putAll: async (list) => {
      if (list.length === 0) return;
      await inTransaction(async (client) => {
        for (const hook of list) {
          await client.query(
            `INSERT INTO ${hooks} (${HOOK_COLUMNS}) VALUES (${marks(1, columns.length)})
             ON CONFLICT (id) DO UPDATE SET ${columns
               .filter((c) => c !== 'id')
               .map((c) => `${c} = EXCLUDED.${c}`)
               .join(', ')}, lease_owner = NULL, lease_until = NULL`,
            hookValues(hook),
          );
        }
      });
    },
  };
}
