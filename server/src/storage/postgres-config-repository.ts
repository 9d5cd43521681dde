import { createHash } from 'node:crypto';
import pg from 'pg';
import { compareNames } from './config-repository.js';
import type {
  Change,
  ChangesPage,
  ConfigRepository,
  HistoryLimits,
  NameVersion,
  PutResult,
  Refused,
  RemoveResult,
  StoredConfig,
  WriteOptions,
} from './config-repository.js';
import { etagOf } from './etag.js';
import { createListener } from './postgres-listener.js';
import { finishWrite, lockForWrite } from './postgres-write.js';
import type { Locked, StampRow } from './postgres-write.js';
import { migrate } from './postgres-migrate.js';
import {
  AGE_PRUNE_INTERVAL_MS,
  historyLimits,
  nextUpdatedAt,
  preconditionsHold,
  systemClock,
} from './write-rules.js';

/** Options of {@link createPostgresConfigRepository}. */
export interface PostgresRepositoryOptions {
  /** `postgres://…` connection string. */
  readonly connectionString: string;
  /** Schema holding the tables (created when missing); default `public`. */
  readonly schema?: string;
  /** Pool size (default 10). */
  readonly maxConnections?: number;
  /** Bounds of the change history. */
  readonly history?: HistoryLimits;
  /** First delay before the LISTEN connection is opened again after a loss, in ms (doubles up to 5 s). */
  readonly reconnectMs?: number;
}

const quoteIdent = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/**
 * Storage for several server instances sharing one PostgreSQL database. Config JSON is kept as `text`, not
 * `jsonb`, because `jsonb` sorts object keys and catalog order (docs/expression-reference.md §7) depends on
 * them.
 *
 * Every write transaction first increments the single row of the revision table. That row lock
 * serializes writers across all instances, so revisions (versions and change ids) are handed out in
 * commit order, which a sequence does not guarantee; the transaction then reads the stored version (a new
 * snapshot, after the lock), checks the preconditions, stamps the time, writes the config and its change
 * row and sends `NOTIFY`. Other instances `LISTEN` on a dedicated connection and read the changes table.
 */
export async function createPostgresConfigRepository(
  options: PostgresRepositoryOptions,
): Promise<ConfigRepository> {
  const schemaName = options.schema ?? 'public';
  const schema = quoteIdent(schemaName);
  const limits = historyLimits(options.history);
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.maxConnections ?? 10,
  });
  // An idle client that loses its connection must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  const names = {
    schema,
    table: `${schema}.linkconfig_configs`,
    revision: `${schema}.linkconfig_revision`,
    changes: `${schema}.linkconfig_changes`,
    legacySequence: `${schema}.linkconfig_version_seq`,
  };
  const { table, revision, changes } = names;
  // NOTIFY channels are identifiers of at most 63 bytes: a digest of the schema keeps them short.
  const channel = `linkconfig_${createHash('sha256').update(schemaName).digest('hex').slice(0, 24)}`;
  try {
    await migrate(pool, names);
  } catch (error) {
    await pool.end();
    throw error;
  }

  let closed = false;
  const query = async <R extends pg.QueryResultRow>(
    text: string | pg.QueryConfig,
    values: unknown[] = [],
  ): Promise<pg.QueryResult<R>> => {
    if (closed) throw new Error('repository is closed');
    return pool.query<R>(text, values);
  };
  const byName = (a: { name: string }, b: { name: string }): number =>
    compareNames(a.name, b.name);

  /** When this instance last scanned for changes older than the age limit (write-clock ms). */
  let lastAgePrune = -Infinity;

  const lock = async (name: string): Promise<Locked> => {
    if (closed) throw new Error('repository is closed');
    return lockForWrite(pool, { revision, table, name });
  };
  const refusal = (locked: Locked): Refused => ({
    ok: false,
    currentEtag: locked.stored === null ? null : etagOf(locked.stored),
  });
  /** The highest change id to drop: beyond the count, or (once a second) older than the age limit. */
  const pruneMark = async (locked: Locked, at: number): Promise<number> => {
    let through = Math.max(
      locked.prunedThrough,
      locked.revision - limits.maxCount,
    );
    if (at - lastAgePrune >= AGE_PRUNE_INTERVAL_MS || at < lastAgePrune) {
      lastAgePrune = at;
      const { rows } = await locked.client.query<{ id: string | null }>(
        `SELECT MAX(id) AS id FROM ${changes} WHERE at < $1`,
        [at - limits.maxAgeMs],
      );
      through = Math.max(through, Number(rows[0]?.id ?? 0));
    }
    return through;
  };
  /**
   * The statement that records a change: the change row, pruning of the history (with the pruned mark),
   * and the notification, which PostgreSQL delivers at commit.
   */
  const recordChange = `ch AS (
      INSERT INTO ${changes} (id, name, op, etag, updated_at, at)
      VALUES ($1, $2, $3, $4, $5, $6) RETURNING 1
    ), pruned AS (
      DELETE FROM ${changes} WHERE id <= $7 RETURNING 1
    ), mark AS (
      UPDATE ${revision} SET pruned_through = $7 WHERE pruned_through < $7 RETURNING 1
    )
    SELECT pg_notify('${channel}', $8)`;
  const changeValues = async (
    locked: Locked,
    change: Change,
    at: number,
  ): Promise<unknown[]> => [
    change.id,
    change.name,
    change.op,
    change.etag,
    change.updatedAt,
    at,
    await pruneMark(locked, at),
    String(change.id),
  ];

  const listeners = new Set<() => void>();
  const notify = (): void => {
    for (const listener of listeners) listener();
  };
  const listener = createListener({
    connectionString: options.connectionString,
    channel,
    reconnectMs: options.reconnectMs ?? 250,
    onWake: notify,
  });

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
      const { rows } = await query<StampRow & { json: string }>(
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
    put: async (name, json, write: WriteOptions = {}) => {
      const locked = await lock(name);
      let commit = false;
      try {
        if (!preconditionsHold(locked.stored, write)) return refusal(locked);
        const now = (write.now ?? systemClock)();
        const updatedAt = nextUpdatedAt(now, locked.stored);
        const createdAt = locked.stored?.createdAt ?? updatedAt;
        const version = locked.revision;
        const etag = etagOf({ version, updatedAt });
        const values = await changeValues(
          locked,
          { id: version, name, op: 'put', etag, updatedAt },
          now.getTime(),
        );
        await locked.client.query(
          `WITH up AS (
             INSERT INTO ${table} (name, json, created_at, updated_at, version)
             VALUES ($2, $9, $10, $5, $1)
             ON CONFLICT (name) DO UPDATE SET json = EXCLUDED.json,
               updated_at = EXCLUDED.updated_at, version = EXCLUDED.version
             RETURNING 1
           ), ${recordChange}`,
          [...values, json, createdAt],
        );
        commit = true;
        const result: PutResult = {
          ok: true,
          createdAt,
          updatedAt,
          version,
          etag,
          created: locked.stored === null,
        };
        return result;
      } finally {
        await finishWrite(locked, commit);
        if (commit) notify();
      }
    },
    remove: async (name, write: WriteOptions = {}) => {
      const locked = await lock(name);
      let commit = false;
      try {
        if (!preconditionsHold(locked.stored, write)) return refusal(locked);
        const result: RemoveResult = {
          ok: true,
          removed: locked.stored !== null,
        };
        // Nothing to delete: roll back, so the revision is not spent on a change that did not happen.
        if (locked.stored === null) return result;
        const now = (write.now ?? systemClock)();
        const values = await changeValues(
          locked,
          {
            id: locked.revision,
            name,
            op: 'delete',
            etag: null,
            updatedAt: nextUpdatedAt(now, locked.stored),
          },
          now.getTime(),
        );
        await locked.client.query(
          `WITH gone AS (DELETE FROM ${table} WHERE name = $2 RETURNING 1), ${recordChange}`,
          values,
        );
        commit = true;
        return result;
      } finally {
        await finishWrite(locked, commit);
        if (commit) notify();
      }
    },
    // One indexed single-row read: cheap enough for every request, and exact across instances.
    changeToken: async () => String(await readHead()),
    head: () => readHead(),
    changesSince: async (afterId, limit): Promise<ChangesPage> => {
      // One statement, one snapshot: the head, the pruned mark and the rows agree.
      const { rows } = await query<{
        head: string;
        pruned_through: string;
        id: string | null;
        name: string;
        op: Change['op'];
        etag: string | null;
        updated_at: string;
      }>(
        `SELECT r.value AS head, r.pruned_through, c.id, c.name, c.op, c.etag, c.updated_at
         FROM ${revision} r LEFT JOIN LATERAL (
           SELECT * FROM ${changes} WHERE id > $1 ORDER BY id LIMIT $2
         ) c ON true
         ORDER BY c.id`,
        [afterId, limit],
      );
      const first = rows[0];
      if (first === undefined) throw new Error('revision row missing');
      const head = Number(first.head);
      if (afterId < Number(first.pruned_through) || afterId > head) {
        return { reset: true, head };
      }
      return {
        reset: false,
        head,
        changes: rows
          .filter((row) => row.id !== null)
          .map((row) => ({
            id: Number(row.id),
            name: row.name,
            op: row.op,
            etag: row.etag,
            updatedAt: row.updated_at,
          })),
      };
    },
    watch: (onChange) => {
      const own = (): void => onChange();
      listeners.add(own);
      if (!closed) listener.start();
      return () => {
        listeners.delete(own);
        if (listeners.size === 0) listener.stop();
      };
    },
    count: async () =>
      Number(
        (await query<{ n: string }>(`SELECT COUNT(*) AS n FROM ${table}`))
          .rows[0]?.n ?? 0,
      ),
    close: async () => {
      if (closed) return;
      closed = true;
      listeners.clear();
      listener.stop();
      await pool.end();
    },
  };

  async function readHead(): Promise<number> {
    const { rows } = await query<{ value: string }>({
      name: 'linkconfig-head',
      text: `SELECT value FROM ${revision}`,
    });
    return Number(rows[0]?.value ?? 0);
  }
}
