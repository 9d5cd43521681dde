import { compareNames } from '../config-repository.js';
import type {
  ConfigRepository,
  LogEvent,
  StoredConfig,
} from '../config-repository.js';
import { logEntryOfRow } from '../log/history-rows.js';
import {
  appendLogEvent,
  putConfig,
  removeConfig,
  stampOfRow,
  updateConfig,
} from '../config-write.js';
import { createGroupCommit } from './sqlite-group-commit.js';
import { createSqliteHooks } from './sqlite-hooks.js';
import { createSqliteKeys } from './sqlite-keys.js';
import { createSqliteLinkHealth } from './sqlite-link-health.js';
import { createSqlitePublish } from './sqlite-publish.js';
import { createSqliteHistory } from './sqlite-history.js';
import { openSqliteDatabase } from './sqlite-open.js';
import { sqliteRestore } from './sqlite-restore.js';
import { sqliteSnapshot } from './sqlite-snapshot.js';
import { prepareStatements } from './sqlite-statements.js';
import { createSqliteWatch } from './sqlite-watch.js';
import { createWriteLock } from './sqlite-write-lock.js';
import { sqliteWriteTransaction } from './sqlite-write.js';
import { changesPage } from '../write-rules.js';

/** History steps that record nothing (see `recordHistory`). */
const NO_HISTORY = {
  readHistoryTip: () => null,
  appendRevision: () => undefined,
  recording: false,
} as const;

/** Options of {@link createSqliteConfigRepository}. */
export interface SqliteRepositoryOptions {
  /** Path of the database file; its folder is created when missing. */
  readonly path: string;
  /** How often watchers check for other processes' commits (`PRAGMA data_version`), in ms (default 250). */
  readonly pollMs?: number;
  /** How long a write waits for another process's write lock, in ms (default 10,000). */
  readonly busyTimeoutMs?: number;
  /** Told after each commit how many writes it held (group commit; metrics and tests). */
  readonly onCommit?: (writes: number) => void;
  /**
   * `false` writes no revisions, so no log either (the feed sees no writes): only for the history
   * benchmark's comparison of a PUT with and without history (`server/bench/history.bench.ts`); no
   * setting of the server turns history off.
   */
  readonly recordHistory?: boolean;
}

/**
 * The default storage: one SQLite file (WAL, `synchronous=FULL`: an acknowledged write survives power loss;
 * `sqlite-open.ts`). Writes that arrive together share one transaction and one fsync (group commit,
 * `sqlite-group-commit.ts`); each is acknowledged only after that commit. Config JSON is stored as
 * received. Calls are synchronous underneath (better-sqlite3), which is the fastest way to use SQLite from
 * one process; the async interface keeps the door open for other adapters.
 *
 * Several processes may share the file: every write is a `BEGIN IMMEDIATE` transaction, so a writer takes
 * the write lock before it reads anything, and waits (up to the busy timeout) instead of failing when
 * another process holds it (`sqlite-write-lock.ts`).
 */
export function createSqliteConfigRepository(
  options: SqliteRepositoryOptions,
): ConfigRepository {
  const busyTimeoutMs = Math.floor(options.busyTimeoutMs ?? 10_000);
  const db = openSqliteDatabase(options.path, busyTimeoutMs);
  const statements = prepareStatements(db, busyTimeoutMs);
  const history = createSqliteHistory(
    db,
    (fn) => guard(fn),
    // Not a write of a config: not counted as one (`ok: false`), so no watcher hears of it.
    async (run) => {
      await write(() => {
        run();
        return { ok: false };
      });
    },
  );
  const tx = sqliteWriteTransaction(
    statements,
    options.recordHistory === false ? NO_HISTORY : history.steps,
  );
  // Each write is a savepoint inside the group's transaction.
  const putTx = db.transaction(putConfig);
  const updateTx = db.transaction(updateConfig);
  const eventTx = db.transaction(appendLogEvent);
  const removeTx = db.transaction(removeConfig);
  const restoreTx = sqliteRestore(db);
  // One read transaction, so head, horizon and rows come from one snapshot. The horizon is the counter
  // once named `pruned` (the feed's own table was pruned up to it; now only a restore raises it).
  const logTx = db.transaction((after: number, limit: number) => {
    const head = statements.selectCounter.get('version') ?? 0;
    const horizon = statements.selectCounter.get('pruned') ?? 0;
    return changesPage(after, { head, horizon }, () =>
      statements.selectLog.all(after, after, limit).map(logEntryOfRow),
    );
  });

  let closed = false;
  const isClosed = (): boolean => closed;
  /** Writes through this connection; `data_version` only moves for other connections' commits. */
  let ownWrites = 0;
  const watchers = createSqliteWatch({
    dataVersion: () => statements.dataVersion.get() ?? 0,
    pollMs: options.pollMs ?? 250,
    isClosed,
  });
  const write = createGroupCommit({
    db,
    withWriteLock: createWriteLock({ statements, busyTimeoutMs, isClosed }),
    isClosed,
    onCommit: options.onCommit,
    onWritten: (writes) => {
      ownWrites += writes;
      // Watchers hear of changes once they are committed.
      queueMicrotask(watchers.notify);
    },
  });
  const guard = <T>(fn: () => T): Promise<T> => {
    if (closed) return Promise.reject(new Error('repository is closed'));
    try {
      return Promise.resolve(fn());
    } catch (error) {
      return Promise.reject(
        error instanceof Error ? error : new Error(String(error)),
      );
    }
  };

  return {
    keys: createSqliteKeys(db, guard),
    linkHealth: createSqliteLinkHealth(db, guard),
    hooks: createSqliteHooks(db, guard),
    publish: createSqlitePublish(db, guard, { write, tx }),
    ...history.reads,
    list: () =>
      guard(() =>
        statements.selectNames
          .all()
          .map((r) => r.name)
          .sort(compareNames),
      ),
    get: (name) =>
      guard((): StoredConfig | null => {
        const row = statements.selectOne.get(name);
        return row === undefined
          ? null
          : { name: row.name, json: row.json, ...stampOfRow(row) };
      }),
    listVersions: () =>
      guard(() =>
        statements.selectVersions
          .all()
          .map(({ name, version }) => ({ name, version }))
          .sort((a, b) => compareNames(a.name, b.name)),
      ),
    version: (name) =>
      guard(() => statements.selectVersion.get(name)?.version ?? null),
    put: (name, json, conditions = {}) =>
      write(() => putTx(tx, { name, json }, conditions)),
    update: (name, decide, conditions = {}) =>
      write(() => updateTx(tx, { name, decide }, conditions)),
    remove: (name, conditions = {}) =>
      write(() => removeTx(tx, name, conditions)),
    appendEvent: async (event) => {
      let entry: LogEvent | undefined;
      await write(() => {
        entry = eventTx(tx, event);
        return { ok: true };
      });
      if (entry === undefined) throw new Error('event not appended');
      return entry;
    },
    restoreRows: async (rows, restore = {}) => {
      await write(() => restoreTx(rows, restore.replace === true));
    },
    changeToken: () =>
      guard(() => `${String(statements.dataVersion.get())}:${ownWrites}`),
    head: () => guard(() => statements.selectCounter.get('version') ?? 0),
    readLog: ({ after, limit }) => guard(() => logTx(after, limit)),
    watch: (listener) => watchers.watch(listener),
    count: () => guard(() => statements.countAll.get()?.n ?? 0),
    snapshot: () => {
      if (closed) throw new Error('repository is closed');
      return sqliteSnapshot(options.path, db, busyTimeoutMs);
    },
    close: () => {
      if (!closed) {
        closed = true;
        watchers.stop();
        db.close();
      }
      return Promise.resolve();
    },
  };
}
