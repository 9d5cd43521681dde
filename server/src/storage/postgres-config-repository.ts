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

interface StampRow {
  created_at: string;
  updated_at: string;
  version: string;
}

/** A write transaction's view once it holds the revision lock. */
interface Locked {
  readonly client: pg.PoolClient;
  readonly revision: number;
  readonly prunedThrough: number;
  readonly stored: {
    createdAt: string;
    updatedAt: string;
    version: number;
  } | null;
}

/**
 * Storage for several server instances sharing one PostgreSQL database. Config JSON is kept as `text`,
 * not `jsonb`, because `jsonb` sorts object keys and catalog order (expression doc §7) depends on them.
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

  /**
   * Opens a write transaction and takes the revision lock, then reads the stored version of `name` in a
   * statement of its own: its snapshot starts after the lock, so it sees every earlier writer's commit.
   */
  const lock = async (name: string): Promise<Locked> => {
    if (closed) throw new Error('repository is closed');
    const client = await pool.connect();
    try {
      const results = (await client.query(
        `BEGIN; UPDATE ${revision} SET value = value + 1 RETURNING value, pruned_through`,
      )) as unknown as pg.QueryResult<{
        value: string;
        pruned_through: string;
      }>[];
      const bumped = results[1]?.rows[0];
      if (bumped === undefined) throw new Error('revision row missing');
      const { rows } = await client.query<StampRow>(
        `SELECT created_at, updated_at, version FROM ${table} WHERE name = $1`,
        [name],
      );
      const row = rows[0];
      return {
        client,
        revision: Number(bumped.value),
        prunedThrough: Number(bumped.pruned_through),
        stored:
          row === undefined
            ? null
            : {
                createdAt: row.created_at,
                updatedAt: row.updated_at,
                version: Number(row.version),
              },
      };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      client.release();
      throw error;
    }
  };
  /** Ends a transaction opened by {@link lock}, committing or rolling back, and returns the client. */
  const finish = async (locked: Locked, commit: boolean): Promise<void> => {
    try {
      await locked.client.query(commit ? 'COMMIT' : 'ROLLBACK');
    } finally {
      locked.client.release();
    }
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
        await finish(locked, commit);
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
        await finish(locked, commit);
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

/** Options of {@link createListener}. */
interface ListenerOptions {
  readonly connectionString: string;
  readonly channel: string;
  readonly reconnectMs: number;
  /** Called on every notification, and after every (re)connection: changes may have been missed. */
  readonly onWake: () => void;
}

/**
 * A dedicated connection that `LISTEN`s on the channel while started. A lost connection is opened again
 * with backoff; each successful (re)connection wakes the watchers, who then catch up from the changes
 * table, so nothing committed while the connection was down is missed.
 */
function createListener(options: ListenerOptions): {
  start(): void;
  stop(): void;
} {
  let running = false;
  let client: pg.Client | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let delay = options.reconnectMs;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({
      connectionString: options.connectionString,
      keepAlive: true,
    });
    client = next;
    const lost = (): void => {
      if (client !== next) return;
      client = undefined;
      next.removeAllListeners('notification');
      void next.end().catch(() => undefined);
      schedule();
    };
    next.on('error', lost);
    next.on('end', lost);
    next.on('notification', (message) => {
      if (message.channel === options.channel) options.onWake();
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${quoteIdent(options.channel)}`);
    } catch {
      lost();
      return;
    }
    if (client !== next) return;
    delay = options.reconnectMs;
    options.onWake();
  };
  function schedule(): void {
    if (!running || timer !== undefined) return;
    timer = setTimeout(() => {
      timer = undefined;
      if (running) void connect();
    }, delay);
    timer.unref();
    delay = Math.min(delay * 2, 5000);
  }

  return {
    start: () => {
      if (running) return;
      running = true;
      void connect();
    },
    stop: () => {
      running = false;
      clearTimeout(timer);
      timer = undefined;
      const current = client;
      client = undefined;
      if (current !== undefined) void current.end().catch(() => undefined);
    },
  };
}

/**
 * Creates the schema and tables when missing (quoted names), and the revision row: it starts above every
 * version an older release handed out from its sequence, and the history before it counts as pruned.
 */
async function migrate(
  pool: pg.Pool,
  names: {
    schema: string;
    table: string;
    revision: string;
    changes: string;
    legacySequence: string;
  },
): Promise<void> {
  const { schema, table, revision, changes, legacySequence } = names;
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    // Serializes concurrent first starts of several instances.
    await client.query(
      "SELECT pg_advisory_xact_lock(hashtext('linkconfig-migrate'))",
    );
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
      `CREATE TABLE IF NOT EXISTS ${changes} (
         id bigint PRIMARY KEY,
         name text NOT NULL COLLATE "C",
         op text NOT NULL,
         etag text,
         updated_at text NOT NULL,
         at bigint NOT NULL
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
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
