import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { compareNames } from './config-repository.js';
import type {
  Change,
  ChangesPage,
  ConfigRepository,
  HistoryLimits,
  PutResult,
  Refused,
  RemoveResult,
  StoredConfig,
  WriteOptions,
} from './config-repository.js';
import { etagOf } from './etag.js';
import { migrate } from './sqlite-migrations.js';
import {
  AGE_PRUNE_INTERVAL_MS,
  historyLimits,
  nextUpdatedAt,
  preconditionsHold,
  systemClock,
} from './write-rules.js';

interface Row {
  name: string;
  json: string;
  created_at: string;
  updated_at: string;
  version: number;
}

interface StampRow {
  created_at: string;
  updated_at: string;
  version: number;
}

interface ChangeRow {
  id: number;
  name: string;
  op: Change['op'];
  etag: string | null;
  updated_at: string;
}

/** Options of {@link createSqliteConfigRepository}. */
export interface SqliteRepositoryOptions {
  /** Path of the database file; its folder is created when missing. */
  readonly path: string;
  /** Bounds of the change history. */
  readonly history?: HistoryLimits;
  /** How often watchers check for other processes' commits (`PRAGMA data_version`), in ms (default 250). */
  readonly pollMs?: number;
  /** How long a write waits for another process's write lock, in ms (default 10,000). */
  readonly busyTimeoutMs?: number;
  /** Told after each commit how many writes it held (group commit; metrics and tests). */
  readonly onCommit?: (writes: number) => void;
}

/**
 * The default storage: one SQLite file (WAL, `synchronous=FULL`: an acknowledged write survives power loss).
 * Writes that arrive together share one transaction and one fsync (group commit); each is acknowledged
 * only after that commit. Config JSON is stored as received. Calls are synchronous underneath (better-sqlite3), which is the fastest way to use
 * SQLite from one process; the async interface keeps the door open for other adapters.
 *
 * Several processes may share the file: every write is a `BEGIN IMMEDIATE` transaction, so a writer takes
 * the write lock before it reads anything, and waits (up to the busy timeout) instead of failing when
 * another process holds it.
 */
export function createSqliteConfigRepository(
  options: SqliteRepositoryOptions,
): ConfigRepository {
  if (options.path !== ':memory:') {
    mkdirSync(dirname(options.path), { recursive: true });
  }
  const limits = historyLimits(options.history);
  const db = new Database(options.path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  const busyTimeoutMs = Math.floor(options.busyTimeoutMs ?? 10_000);
  // Reads wait inside SQLite (rarely needed in WAL mode); writes wait in `withWriteLock`.
  db.pragma(`busy_timeout = ${busyTimeoutMs}`);
  // Acknowledged writes must survive power loss: refuse to run if the setting did not take.
  if (db.pragma('synchronous', { simple: true }) !== 2) {
    db.close();
    throw new Error(
      'SQLite refused synchronous=FULL; acknowledged writes would not be durable',
    );
  }
  db.pragma('foreign_keys = ON');
  migrate(db);

  const selectNames = db.prepare<[], { name: string }>(
    'SELECT name FROM configs',
  );
  const selectVersions = db.prepare<[], { name: string; version: number }>(
    'SELECT name, version FROM configs',
  );
  const selectOne = db.prepare<[string], Row>(
    'SELECT name, json, created_at, updated_at, version FROM configs WHERE name = ?',
  );
  const selectVersion = db.prepare<[string], { version: number }>(
    'SELECT version FROM configs WHERE name = ?',
  );
  const selectStamp = db.prepare<[string], StampRow>(
    'SELECT created_at, updated_at, version FROM configs WHERE name = ?',
  );
  const bumpRevision = db.prepare<[], { value: number }>(
    "UPDATE counters SET value = value + 1 WHERE key = 'version' RETURNING value",
  );
  const selectCounter = db
    .prepare<[string], number>('SELECT value FROM counters WHERE key = ?')
    .pluck();
  const raisePruned = db.prepare<[number, number]>(
    "UPDATE counters SET value = ? WHERE key = 'pruned' AND value < ?",
  );
  const update = db.prepare<[string, string, number, string]>(
    'UPDATE configs SET json = ?, updated_at = ?, version = ? WHERE name = ?',
  );
  const insert = db.prepare<[string, string, string, string, number]>(
    'INSERT INTO configs (name, json, created_at, updated_at, version) VALUES (?, ?, ?, ?, ?)',
  );
  const deleteOne = db.prepare<[string]>('DELETE FROM configs WHERE name = ?');
  const insertChange = db.prepare<
    [number, string, string, string | null, string, number]
  >(
    'INSERT INTO changes (id, name, op, etag, updated_at, at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const lastExpired = db
    .prepare<[number], number | null>(
      'SELECT MAX(id) FROM changes WHERE at < ?',
    )
    .pluck();
  const pruneThrough = db.prepare<[number]>(
    'DELETE FROM changes WHERE id <= ?',
  );
  const selectChanges = db.prepare<[number, number], ChangeRow>(
    'SELECT id, name, op, etag, updated_at FROM changes WHERE id > ? ORDER BY id LIMIT ?',
  );
  const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  const noBusyWait = db.prepare('PRAGMA busy_timeout = 0');
  const busyWait = db.prepare(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
  const countAll = db.prepare<[], { n: number }>(
    'SELECT COUNT(*) AS n FROM configs',
  );

  /** Highest pruned id this connection knows of; saves a write when nothing new falls out. */
  let knownPruned = 0;
  /** When this connection last scanned for changes older than the age limit (write-clock ms). */
  let lastAgePrune = -Infinity;

  /** Takes the next revision: the first write of every write transaction. */
  const nextRevision = (): number => {
    const bumped = bumpRevision.get();
    if (bumped === undefined) throw new Error('revision counter missing');
    return bumped.value;
  };
  /** Records a change and drops what falls out of the history bounds (inside the transaction). */
  const record = (change: Change, at: number): void => {
    insertChange.run(
      change.id,
      change.name,
      change.op,
      change.etag,
      change.updatedAt,
      at,
    );
    let through = change.id - limits.maxCount;
    // The age scan reads the whole (bounded) table, so it runs at most once a second per connection.
    if (at - lastAgePrune >= AGE_PRUNE_INTERVAL_MS || at < lastAgePrune) {
      lastAgePrune = at;
      through = Math.max(through, lastExpired.get(at - limits.maxAgeMs) ?? 0);
    }
    if (through > knownPruned) {
      pruneThrough.run(through);
      raisePruned.run(through, through);
      knownPruned = through;
    }
  };
  const stampOf = (name: string) => {
    const row = selectStamp.get(name);
    return row === undefined
      ? null
      : {
          createdAt: row.created_at,
          updatedAt: row.updated_at,
          version: row.version,
        };
  };
  const refusal = (current: { version: number; updatedAt: string } | null) =>
    ({
      ok: false,
      currentEtag: current === null ? null : etagOf(current),
    }) as const;

  const putTx = db.transaction(
    (name: string, json: string, write: WriteOptions): PutResult | Refused => {
      const previous = stampOf(name);
      if (!preconditionsHold(previous, write)) return refusal(previous);
      const version = nextRevision();
      const now = (write.now ?? systemClock)();
      const updatedAt = nextUpdatedAt(now, previous);
      const createdAt = previous?.createdAt ?? updatedAt;
      if (previous === null) {
        insert.run(name, json, createdAt, updatedAt, version);
      } else {
        update.run(json, updatedAt, version, name);
      }
      const etag = etagOf({ version, updatedAt });
      record({ id: version, name, op: 'put', etag, updatedAt }, now.getTime());
      return {
        ok: true,
        createdAt,
        updatedAt,
        version,
        etag,
        created: previous === null,
      };
    },
  );
  const removeTx = db.transaction(
    (name: string, write: WriteOptions): RemoveResult | Refused => {
      const previous = stampOf(name);
      if (!preconditionsHold(previous, write)) return refusal(previous);
      if (previous === null) return { ok: true, removed: false };
      const id = nextRevision();
      const now = (write.now ?? systemClock)();
      deleteOne.run(name);
      record(
        {
          id,
          name,
          op: 'delete',
          etag: null,
          updatedAt: nextUpdatedAt(now, previous),
        },
        now.getTime(),
      );
      return { ok: true, removed: true };
    },
  );
  // One read transaction, so head, pruned mark and rows come from one snapshot.
  const changesTx = db.transaction(
    (afterId: number, limit: number): ChangesPage => {
      const head = selectCounter.get('version') ?? 0;
      const pruned = selectCounter.get('pruned') ?? 0;
      if (afterId < pruned || afterId > head) return { reset: true, head };
      const changes = selectChanges.all(afterId, limit).map((row): Change => ({
        id: row.id,
        name: row.name,
        op: row.op,
        etag: row.etag,
        updatedAt: row.updated_at,
      }));
      return { reset: false, head, changes };
    },
  );

  let closed = false;
  /** Writes through this connection; `data_version` only moves for other connections' commits. */
  let ownWrites = 0;
  const listeners = new Set<() => void>();
  const notify = (): void => {
    for (const listener of listeners) listener();
  };
  let poller: ReturnType<typeof setInterval> | undefined;
  const startPolling = (): void => {
    let seen = dataVersion.get();
    poller = setInterval(() => {
      if (closed) return;
      const current = dataVersion.get();
      if (current !== seen) {
        seen = current;
        notify();
      }
    }, options.pollMs ?? 250);
    poller.unref();
  };
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
  /**
   * Group commit. Writes are queued and run together in the next turn of the event loop, in one
   * `BEGIN IMMEDIATE` transaction, each in its own savepoint (better-sqlite3 nests transaction functions
   * as savepoints), so a write that throws rolls back alone. Writes whose requests arrive while a commit
   * is being made share the next transaction: one fsync (`synchronous=FULL`) for all of them instead of
   * one each. Every write is resolved only after the commit that holds it; none is acknowledged early.
   */
  interface Pending {
    readonly run: () => { ok: boolean };
    readonly resolve: (result: { ok: boolean }) => void;
    readonly reject: (error: unknown) => void;
  }
  const queue: Pending[] = [];
  let flushing = false;
  const batchTx = db.transaction((batch: readonly Pending[]) =>
    batch.map((item) => {
      try {
        return { result: item.run() };
      } catch (error) {
        return { error };
      }
    }),
  );
  const flush = async (): Promise<void> => {
    flushing = true;
    try {
      while (queue.length > 0) {
        const batch = queue.splice(0);
        let outcomes: ({ result: { ok: boolean } } | { error: unknown })[];
        try {
          outcomes = await withWriteLock(() => batchTx.immediate(batch));
        } catch (error) {
          for (const item of batch) item.reject(error);
          continue;
        }
        options.onCommit?.(batch.length);
        let changed = false;
        outcomes.forEach((outcome, i) => {
          const item = batch[i];
          if (item === undefined) return;
          if ('error' in outcome) item.reject(outcome.error);
          else {
            if (outcome.result.ok) {
              ownWrites++;
              changed = true;
            }
            item.resolve(outcome.result);
          }
        });
        // Watchers hear of changes once they are committed.
        if (changed) queueMicrotask(notify);
      }
    } finally {
      flushing = false;
    }
  };
  /** Queues a write for the next group commit; resolves with its result once it is committed. */
  const write = <T extends { ok: boolean }>(run: () => T): Promise<T> => {
    if (closed) return Promise.reject(new Error('repository is closed'));
    return new Promise<T>((resolve, reject) => {
      queue.push({
        run,
        resolve: resolve as (result: { ok: boolean }) => void,
        reject,
      });
      if (!flushing && queue.length === 1) {
        flushing = true;
        setImmediate(() => void flush());
      }
    });
  };
  /**
   * Runs a `BEGIN IMMEDIATE` transaction, waiting while another process holds the write lock. SQLite's
   * own busy handler would wait by sleeping in this thread, stalling every request of the process (and
   * in steps that grow to 100 ms); instead, a busy `BEGIN` fails at once and is tried again after a short
   * timer, so the process keeps serving reads meanwhile and takes the lock soon after it is free.
   */
  const withWriteLock = async <T>(run: () => T): Promise<T> => {
    const started = Date.now();
    for (let attempt = 0; ; attempt++) {
      if (closed) throw new Error('repository is closed');
      noBusyWait.run();
      try {
        return run();
      } catch (error) {
        const busy =
          error instanceof Database.SqliteError && error.code === 'SQLITE_BUSY';
        if (!busy || Date.now() - started >= busyTimeoutMs) throw error;
      } finally {
        busyWait.run();
      }
      // 1 ms at first, up to 8 ms, jittered so two waiting processes do not retry in step.
      const delay = Math.min(1 + attempt / 4, 8) * (0.5 + Math.random());
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  };

  return {
    list: () =>
      guard(() =>
        selectNames
          .all()
          .map((r) => r.name)
          .sort(compareNames),
      ),
    get: (name) =>
      guard((): StoredConfig | null => {
        const row = selectOne.get(name);
        return row === undefined
          ? null
          : {
              name: row.name,
              json: row.json,
              createdAt: row.created_at,
              updatedAt: row.updated_at,
              version: row.version,
            };
      }),
    listVersions: () =>
      guard(() =>
        selectVersions
          .all()
          .map(({ name, version }) => ({ name, version }))
          .sort((a, b) => compareNames(a.name, b.name)),
      ),
    version: (name) => guard(() => selectVersion.get(name)?.version ?? null),
    // Inside the group's transaction: each runs as a savepoint.
    put: (name, json, options = {}) => write(() => putTx(name, json, options)),
    remove: (name, options = {}) => write(() => removeTx(name, options)),
    changeToken: () => guard(() => `${String(dataVersion.get())}:${ownWrites}`),
    head: () => guard(() => selectCounter.get('version') ?? 0),
    changesSince: (afterId, limit) => guard(() => changesTx(afterId, limit)),
    watch: (listener) => {
      const own = (): void => listener();
      listeners.add(own);
      if (poller === undefined && !closed) startPolling();
      return () => {
        listeners.delete(own);
        if (listeners.size === 0 && poller !== undefined) {
          clearInterval(poller);
          poller = undefined;
        }
      };
    },
    count: () => guard(() => countAll.get()?.n ?? 0),
    close: () => {
      if (!closed) {
        closed = true;
        clearInterval(poller);
        poller = undefined;
        listeners.clear();
        db.close();
      }
      return Promise.resolve();
    },
  };
}
