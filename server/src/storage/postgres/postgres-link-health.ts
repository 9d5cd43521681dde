/**
 * Link health in PostgreSQL (`linkconfig_link_health` of the repository's schema). Claims of all instances
 * are serialized by an advisory transaction lock, so two instances never lease one URL, nor URLs of one
 * host at the same time; other calls are single statements.
 */
import type pg from 'pg';
import type { LinkHealthRecord } from '@linkconfig/shared';
import {
  LINK_HEALTH_COLUMNS,
  recordOfRow,
  rowValues,
  uncheckedRecord,
} from '../link-health-store.js';
import type {
  LinkClaim,
  LinkHealthRow,
  LinkHealthStore,
} from '../link-health-store.js';
import { inMigration } from './postgres-migrate.js';

/** The table's migration, under the adapter's migration lock. */
export async function migrateLinkHealth(
  pool: pg.Pool,
  table: string,
): Promise<void> {
  await inMigration(pool, async (client) => {
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${table} (
         url text PRIMARY KEY COLLATE "C",
         host text NOT NULL,
         state text NOT NULL,
         since text,
         checked_at text,
         status integer,
         final_url text,
         reason text,
         failing_since text,
         failures integer NOT NULL,
         next_at bigint NOT NULL,
         lease_owner text,
         lease_until bigint
       )`,
    );
    // An index is made in its table's schema: its name is never qualified.
    const index = (suffix: string, columns: string): string =>
      `CREATE INDEX IF NOT EXISTS linkconfig_link_health_${suffix} ON ${table} (${columns})`;
    await client.query(index('due', 'next_at'));
    await client.query(index('state', 'state'));
    await client.query(index('host', 'host, lease_until'));
  });
}

/** The advisory lock every instance's claim takes. */
const CLAIM_LOCK =
  "SELECT pg_advisory_xact_lock(hashtext('linkconfig-link-claim'))";

/** Options of {@link createPostgresLinkHealth}. */
export interface PostgresLinkHealthOptions {
  readonly table: string;
  readonly isClosed: () => boolean;
}

/** A {@link LinkHealthStore} on `pool`. */
export function createPostgresLinkHealth(
  pool: pg.Pool,
  { table, isClosed }: PostgresLinkHealthOptions,
): LinkHealthStore {
  const columns = LINK_HEALTH_COLUMNS.split(',').length;
  const values = (rows: number): string =>
    Array.from(
      { length: rows },
      (_, r) =>
        `(${Array.from({ length: columns }, (_, c) => `$${r * columns + c + 1}`).join(', ')})`,
    ).join(', ');
  const query = async <R extends pg.QueryResultRow>(
    text: string,
    params: unknown[] = [],
  ): Promise<pg.QueryResult<R>> => {
    if (isClosed()) throw new Error('repository is closed');
    return pool.query<R>(text, params);
  };
  const insert = async (
    records: readonly LinkHealthRecord[],
    conflict: string,
  ): Promise<void> => {
    // Batches of 500 rows keep each statement under PostgreSQL's 65,535 parameters.
    for (let i = 0; i < records.length; i += 500) {
      const batch = records.slice(i, i + 500);
      await query(
        `INSERT INTO ${table} (${LINK_HEALTH_COLUMNS}) VALUES ${values(batch.length)} ${conflict}`,
        batch.flatMap(rowValues),
      );
    }
  };
  const rows = async (where: string, params: unknown[]) =>
    (
      await query<LinkHealthRow>(
        `SELECT ${LINK_HEALTH_COLUMNS} FROM ${table} ${where}`,
        params,
      )
    ).rows.map(recordOfRow);
  return {
    urls: async () =>
      (await query<{ url: string }>(`SELECT url FROM ${table}`)).rows.map(
        (r) => r.url,
      ),
    get: (urls) => rows('WHERE url = ANY($1::text[])', [urls]),
    withStates: (states) => rows('WHERE state = ANY($1::text[])', [states]),
    track: async (added, gone, now) => {
      await insert(
        added.map((url) => uncheckedRecord(url, now)),
        'ON CONFLICT (url) DO NOTHING',
      );
      if (gone.length > 0)
        await query(`DELETE FROM ${table} WHERE url = ANY($1::text[])`, [gone]);
    },
    schedule: async (urls, at) =>
      (
        await query(
          `UPDATE ${table} SET next_at = LEAST(next_at, $1), lease_owner = NULL, lease_until = NULL
           WHERE url = ANY($2::text[])`,
          [at, urls],
        )
      ).rowCount ?? 0,
    claim: async (c: LinkClaim) => {
      if (isClosed()) throw new Error('repository is closed');
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query(CLAIM_LOCK);
        const { rows: claimed } = await client.query<LinkHealthRow>(
          `WITH due AS (
             SELECT url FROM (
               SELECT url, next_at,
                      ROW_NUMBER() OVER (PARTITION BY host ORDER BY next_at, url) AS n
               FROM ${table}
               WHERE next_at <= $1
                 AND (lease_until IS NULL OR lease_until <= $1)
                 AND host NOT IN (
                   SELECT host FROM ${table} WHERE lease_until > $1 AND lease_owner <> $2
                 )
                 AND NOT (host = ANY($6::text[]))
                 AND ($7::text[] IS NULL OR url = ANY($7::text[]))
             ) d
             WHERE n <= $3
             ORDER BY next_at, url
             LIMIT $4
           )
           UPDATE ${table} t SET lease_owner = $2, lease_until = $5
           FROM due WHERE t.url = due.url
           RETURNING ${LINK_HEALTH_COLUMNS.split(', ')
             .map((c) => `t.${c}`)
             .join(', ')}`,
          [
            c.now,
            c.owner,
            c.perHost,
            c.limit,
            c.until,
            c.busyHosts ?? [],
            c.only ?? null,
          ],
        );
        await client.query('COMMIT');
        return claimed
          .map(recordOfRow)
          .sort((a, b) => a.nextAt - b.nextAt || (a.url < b.url ? -1 : 1));
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    complete: async (records, owner) => {
      if (records.length === 0) return new Set<string>();
      const column = <T>(of: (r: LinkHealthRecord) => T): T[] =>
        records.map(of);
      const { rows: stored } = await query<{ url: string }>(
        `UPDATE ${table} t SET state = v.state, since = v.since, checked_at = v.checked_at,
           status = v.status, final_url = v.final_url, reason = v.reason,
           failing_since = v.failing_since, failures = v.failures, next_at = v.next_at,
           lease_owner = NULL, lease_until = NULL
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::text[],
                     $7::text[], $8::text[], $9::int[], $10::bigint[])
           AS v(url, state, since, checked_at, status, final_url, reason, failing_since, failures, next_at)
         WHERE t.url = v.url AND t.lease_owner = $11
         RETURNING t.url`,
        [
          column((r) => r.url),
          column((r) => r.state),
          column((r) => r.since),
          column((r) => r.checkedAt),
          column((r) => r.status),
          column((r) => r.finalUrl),
          column((r) => r.reason),
          column((r) => r.failingSince),
          column((r) => r.failures),
          column((r) => r.nextAt),
          owner,
        ],
      );
      return new Set(stored.map((r) => r.url));
    },
    counts: async () =>
      Object.fromEntries(
        (
          await query<{ state: string; n: string }>(
            `SELECT state, COUNT(*) AS n FROM ${table} GROUP BY state`,
          )
        ).rows.map((r) => [r.state, Number(r.n)]),
      ),
    all: () => rows('ORDER BY url', []),
    putAll: async (records) => {
      await insert(
        records,
        `ON CONFLICT (url) DO UPDATE SET ${LINK_HEALTH_COLUMNS.split(', ')
          .filter((c) => c !== 'url')
          .map((c) => `${c} = EXCLUDED.${c}`)
          .join(', ')}, lease_owner = NULL, lease_until = NULL`,
      );
    },
  };
}
