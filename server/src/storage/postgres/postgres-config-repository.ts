import { createHash } from 'node:crypto';
import pg from 'pg';
import { compareNames } from '../config-repository.js';
import type {
  ConfigRepository,
  NameVersion,
  StoredConfig,
} from '../config-repository.js';
import {
  appendLogEvent,
  putConfig,
  removeConfig,
  stampOfRow,
  updateConfig,
} from '../config-write.js';
import { readLogPage } from './postgres-changes.js';
import { createPostgresHistoryReads } from './postgres-history.js';
import { createListener } from './postgres-listener.js';
import type { StampRow } from './postgres-write-lock.js';
import { createWaker } from './postgres-wake.js';
import { createPostgresWriter } from './postgres-writer.js';
import { migrate } from './postgres-migrate.js';
import { postgresRestore } from './postgres-restore.js';
import { postgresSnapshot } from './postgres-snapshot.js';
import { createPostgresHooks, migrateHooks } from './postgres-hooks.js';
import { createPostgresKeys, migrateKeys } from './postgres-keys.js';
import { createPostgresPublish, migratePublish } from './postgres-publish.js';
import {
  createPostgresLinkHealth,
  migrateLinkHealth,
} from './postgres-link-health.js';

/** Options of {@link createPostgresConfigRepository}. */
export interface PostgresRepositoryOptions {
  /** `postgres://…` connection string. */
  readonly connectionString: string;
  /** Schema holding the tables (created when missing); default `public`. */
  readonly schema?: string;
  /** Pool size (default 10). */
  readonly maxConnections?: number;
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
 * snapshot, after the lock), and runs the one write algorithm (`config-write.ts`: preconditions, stamp,
 * config row, revision), whose rows go out as one statement (`postgres-writer.ts`). The revisions are the
 * log: after a commit, a `NOTIFY` without payload wakes the other instances (`postgres-wake.ts`), which
 * `LISTEN` on a dedicated connection and read the log after their position (`readLog`).
 */
export async function createPostgresConfigRepository(
  options: PostgresRepositoryOptions,
): Promise<ConfigRepository> {
  const schemaName = options.schema ?? 'public';
  const schema = quoteIdent(schemaName);
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
    revisions: `${schema}.linkconfig_revisions`,
    events: `${schema}.linkconfig_log_events`,
    schemaVersion: `${schema}.linkconfig_schema`,
  };
  const { table, revision, revisions, events } = names;
  const keysTable = `${schema}.linkconfig_keys`;
  const linkHealthTable = `${schema}.linkconfig_link_health`;
  const hookTables = {
    hooks: `${schema}.linkconfig_hooks`,
    deliveries: `${schema}.linkconfig_hook_deliveries`,
  };
  const publishTables = {
    records: `${schema}.linkconfig_published`,
    legacyEvents: `${schema}.linkconfig_publish_events`,
  };
  // NOTIFY channels are identifiers of at most 63 bytes: a digest of the schema keeps them short.
  const channel = `linkconfig_${createHash('sha256').update(schemaName).digest('hex').slice(0, 24)}`;
  try {
    await migrate(pool, names);
    await migrateKeys(pool, keysTable);
    await migrateLinkHealth(pool, linkHealthTable);
    await migrateHooks(pool, hookTables);
    await migratePublish(pool, publishTables);
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
  const waker = createWaker({
    connectionString: options.connectionString,
    channel,
    isClosed: () => closed,
  });
  const committed = (): void => {
    notify();
    waker.wake();
  };
  const write = createPostgresWriter({
    pool,
    targets: { table, revision, revisions, events },
    isClosed: () => closed,
    onCommit: committed,
  });

  return {
    keys: createPostgresKeys(query, keysTable),
    linkHealth: createPostgresLinkHealth(pool, {
      table: linkHealthTable,
      isClosed: () => closed,
    }),
    hooks: createPostgresHooks(pool, {
      tables: hookTables,
      isClosed: () => closed,
    }),
    publish: createPostgresPublish(pool, {
      records: publishTables.records,
      write,
      isClosed: () => closed,
    }),
    ...createPostgresHistoryReads(query, { revisions, events }),
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
        : { name, json: row.json, ...stampOfRow(row) };
    },
    version: async (name) => {
      const { rows } = await query<{ version: string }>(
        `SELECT version FROM ${table} WHERE name = $1`,
        [name],
      );
      return rows[0] === undefined ? null : Number(rows[0].version);
    },
    put: (name, json, conditions = {}) =>
      write(name, (tx) => putConfig(tx, { name, json }, conditions), {
        heldVersion: conditions.heldText?.version,
      }),
    update: (name, decide, conditions = {}) =>
      write(name, (tx) => updateConfig(tx, { name, decide }, conditions), {
        heldVersion: conditions.heldText?.version,
        needsJson: true,
      }),
    remove: (name, conditions = {}) =>
      write(name, (tx) => removeConfig(tx, name, conditions)),
    // One indexed single-row read: cheap enough for every request, and exact across instances.
    changeToken: async () => String(await readHead()),
    head: () => readHead(),
    readLog: (page) =>
      readLogPage(query, { revision, revisions, events }, page),
    appendEvent: (event) =>
      write(event.name, (tx) => appendLogEvent(tx, event)),
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
    snapshot: () => {
      if (closed) throw new Error('repository is closed');
      return postgresSnapshot(pool, {
        table,
        revisions,
        keys: keysTable,
        published: publishTables.records,
      });
    },
    restoreRows: async (rows, restore = {}) => {
      if (closed) throw new Error('repository is closed');
      const targets = {
        table,
        revision,
        revisions,
        events,
        published: publishTables.records,
      };
      await postgresRestore(pool, targets, {
        rows,
        replace: restore.replace === true,
      });
      committed();
    },
    close: async () => {
      if (closed) return;
      closed = true;
      listeners.clear();
      listener.stop();
      await waker.close();
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
