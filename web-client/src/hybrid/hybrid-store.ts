import { RemoteStoreError } from '../remote/remote-store-error.js';
import type { ConfigEntry, LinkConfig } from '@linkconfig/shared';
import { sortNames } from '../config-store.js';
import type { ConfigStore, RemoteOperation } from '../config-store.js';
import { createConfigDb } from '../indexeddb/config-db.js';
import { isIndexedDBConfigStore } from '../indexeddb/indexeddb-store.js';
import type { IndexedDBConfigStore } from '../indexeddb/indexeddb-store.js';
import { createOutbox } from '../indexeddb/outbox.js';
import type { DeadLetter, Outbox, OutboxEntry } from '../indexeddb/outbox.js';
import type { BackoffOptions } from '../backoff.js';
import { FlushError } from './flush-error.js';
import { SyncQueue } from './sync-queue.js';

/** What a UI can show about a hybrid store. */
export interface HybridStatus {
  /** Writes waiting for the server. */
  pending: number;
  /** Writes the server refused for good; see `deadLetters()`. */
  deadLetters: number;
  /** The last remote failure, in words. */
  lastError: string | null;
  /** Whether the server answered the last call (`null` before the first). */
  remoteReachable: boolean | null;
  /** Whether delivery waits for valid credentials (401/403). */
  paused: boolean;
}

/** Options of {@link createHybridStore}. */
export interface HybridStoreOptions {
  local: ConfigStore;
  remote: ConfigStore;
  /** Called once per failed remote operation, and for each write set aside as a dead letter. */
  onRemoteError?: (op: RemoteOperation, name: string, error: unknown) => void;
  /** Outbox database name when `local` is not an IndexedDB store of this package. */
  outboxDbName?: string;
  /** The IndexedDB factory for that outbox (tests). */
  indexedDB?: IDBFactory;
  backoff?: BackoffOptions;
  lockName?: string;
}

/** A ConfigStore that writes through to local and remote, reads local first and syncs in the background. */
export interface HybridStore extends ConfigStore {
  /** Resolves when every queued write reached the server; rejects with a {@link FlushError} saying why not. */
  flush(options?: { timeoutMs?: number }): Promise<void>;
  getStatus(): HybridStatus;
  /** Calls `listener` with the status whenever it changes; returns the unsubscribe function. */
  subscribe(listener: (status: HybridStatus) => void): () => void;
  /** Calls `listener` with a name whenever a background refresh changed that config locally. */
  subscribeChanges(listener: (name: string) => void): () => void;
  /** Writes the server refused for good. */
  deadLetters(): Promise<DeadLetter[]>;
  /** Queues a dead letter again (for example after fixing the cause), or drops it. */
  retryDeadLetter(name: string): Promise<void>;
  discardDeadLetter(name: string): Promise<void>;
  /** Resumes delivery paused by 401/403 (for example after a new token). */
  resume(): void;
  /** Starts a delivery pass now. */
  sync(): Promise<void>;
  /** Stops timers and listeners; the store must not be used afterwards. */
  close(): void;
}

const newToken = () =>
  `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;

/**
 * Creates the offline-first store of the contract (§4.2): writes land locally and in a durable outbox
 * at once, reads come from local first, and a background queue delivers to the remote.
 *
 * @example
 * const store = createHybridStore({
 *   local: await createIndexedDBStore(),
 *   remote: createRemoteStore({ baseUrl: location.origin }),
 *   onRemoteError: (op, name, err) => console.warn(op, name, err),
 * });
 * store.subscribe((s) => render(s.pending, s.remoteReachable));
 */
export function createHybridStore(options: HybridStoreOptions): HybridStore {
  const { local, remote } = options;
  const ours: IndexedDBConfigStore | null = isIndexedDBConfigStore(local)
    ? local
    : null;
  const outbox: Outbox =
    ours?.outbox ??
    createOutbox(
      createConfigDb({
        dbName: options.outboxDbName ?? 'linkconfig-outbox',
        indexedDB: options.indexedDB,
      }),
    );
  const statusListeners = new Set<(status: HybridStatus) => void>();
  const changeListeners = new Set<(name: string) => void>();
  let status: HybridStatus = {
    pending: 0,
    deadLetters: 0,
    lastError: null,
    remoteReachable: null,
    paused: false,
  };
  let closed = false;

  const report = (op: RemoteOperation, name: string, error: unknown) => {
    try {
      options.onRemoteError?.(op, name, error);
    } catch {
      // A throwing callback must not break the store.
    }
  };

  const queue = new SyncQueue({
    outbox,
    remote,
    backoff: options.backoff,
    lockName: options.lockName,
    events: { onFailure: report, onChange: () => void refreshStatus() },
  });

  const publish = (next: HybridStatus) => {
    status = next;
    for (const listener of statusListeners) listener(status);
  };

  const refreshStatus = async () => {
    try {
      const [pending, dead] = await Promise.all([
        outbox.all(),
        outbox.deadLetters(),
      ]);
      publish({
        pending: pending.length,
        deadLetters: dead.length,
        lastError: queue.lastError === null ? null : describe(queue.lastError),
        remoteReachable: queue.reachable,
        paused: queue.paused,
      });
    } catch (error) {
      publish({ ...status, lastError: describe(error) });
    }
  };

  /** Runs a remote read, keeping the queue informed; never rejects. */
  const remoteCall = async <T>(
    op: RemoteOperation,
    name: string,
    work: () => Promise<T>,
  ) => {
    try {
      const value = await work();
      const wasReachable = queue.reachable;
      queue.remoteSucceeded();
      if (wasReachable !== true) void refreshStatus();
      return { ok: true as const, value };
    } catch (error) {
      queue.lastError = error;
      // An HTTP answer means the server is there; a network failure or timeout means it is not.
      queue.reachable =
        error instanceof RemoteStoreError ? error.kind === 'http' : false;
      report(op, name, error);
      void refreshStatus();
      return { ok: false as const };
    }
  };

  const queueWrite = async (entry: OutboxEntry, config?: LinkConfig) => {
    if (closed) throw new Error('This hybrid store is closed');
    if (ours) {
      if (config) await ours.saveAndQueue(entry.name, config, entry);
      else await ours.removeAndQueue(entry.name, entry);
    } else {
      // Local first: the outbox never holds a write that the local store refused.
      if (config) await local.save(entry.name, config);
      else await local.remove(entry.name);
      await outbox.put(entry);
    }
    void refreshStatus();
    void queue.drain();
  };

  const refresh = async (name: string, known: ConfigEntry) => {
    const result = await remoteCall('load', name, () => remote.loadEntry(name));
    if (!result.ok || closed) return;
    try {
      // Local wins until acknowledged: never overwrite a pending change or resurrect a pending delete.
      if (await outbox.get(name)) return;
      const fresh = result.value;
      if (fresh && fresh.meta.updatedAt > known.meta.updatedAt) {
        await cache(name, fresh);
        for (const listener of changeListeners) listener(name);
      }
      // A name the server does not have is kept: it may hold local data that was never delivered.
    } catch (error) {
      queue.lastError = error;
      void refreshStatus();
    }
  };

  const cache = (name: string, entry: ConfigEntry) =>
    ours ? ours.putEntry(name, entry) : local.save(name, entry.config);

  const loadEntry = async (name: string): Promise<ConfigEntry | null> => {
    const known = await local.loadEntry(name);
    if (known) {
      void refresh(name, known);
      return known;
    }
    if (await outbox.get(name)) return null; // a pending delete: never fetch it back
    const result = await remoteCall('load', name, () => remote.loadEntry(name));
    if (!result.ok || !result.value) return null;
    if (!(await outbox.get(name)) && !(await local.loadEntry(name)))
      await cache(name, result.value);
    return result.value;
  };

  const onOnline = () => queue.online();
  const target = globalThis as {
    addEventListener?: typeof addEventListener;
    removeEventListener?: typeof removeEventListener;
  };
  target.addEventListener?.('online', onOnline);
  void refreshStatus();
  void queue.drain();

  return {
    save: (name, config) =>
      queueWrite(
        {
          name,
          op: 'save',
          config,
          token: newToken(),
          queuedAt: new Date().toISOString(),
        },
        config,
      ),
    remove: (name) =>
      queueWrite({
        name,
        op: 'remove',
        token: newToken(),
        queuedAt: new Date().toISOString(),
      }),
    loadEntry,
    load: async (name) => (await loadEntry(name))?.config ?? null,
    async list() {
      const [names, pending] = await Promise.all([local.list(), outbox.all()]);
      const result = await remoteCall('list', '', () => remote.list());
      const all = new Set([...names, ...(result.ok ? result.value : [])]);
      for (const entry of pending)
        if (entry.op === 'remove') all.delete(entry.name);
      return sortNames(all);
    },
    async flush(flushOptions = {}) {
      const deadline = Date.now() + (flushOptions.timeoutMs ?? 30_000);
      for (let first = true; ; first = false) {
        // Respect the backoff: only start a pass when no retry is already scheduled.
        if (first || !queue.waiting) await queue.drain();
        const [pending, dead] = await Promise.all([
          outbox.all(),
          outbox.deadLetters(),
        ]);
        const reasons: string[] = [];
        if (queue.paused)
          reasons.push(
            'delivery is paused: the server refused the credentials (401/403)',
          );
        if (pending.length === 0 && dead.length === 0) return;
        for (const letter of dead)
          reasons.push(
            `"${letter.name}" was refused by the server (${letter.status}): ${letter.error}`,
          );
        if (pending.length === 0 || reasons.length > 0)
          throw new FlushError(reasons);
        if (Date.now() >= deadline || closed) {
          throw new FlushError([
            `${pending.length} change(s) not delivered: ${describe(queue.lastError)}`,
          ]);
        }
        await new Promise((resolve) =>
          setTimeout(
            resolve,
            Math.min(250, Math.max(0, deadline - Date.now())),
          ),
        );
      }
    },
    getStatus: () => status,
    subscribe(listener) {
      statusListeners.add(listener);
      return () => statusListeners.delete(listener);
    },
    subscribeChanges(listener) {
      changeListeners.add(listener);
      return () => changeListeners.delete(listener);
    },
    deadLetters: () => outbox.deadLetters(),
    async retryDeadLetter(name) {
      const letter = (await outbox.deadLetters()).find((l) => l.name === name);
      if (!letter) return;
      if (!(await outbox.get(name))) {
        await outbox.put({
          name,
          op: letter.op,
          config: letter.config,
          token: newToken(),
          queuedAt: new Date().toISOString(),
        });
      }
      await outbox.discardDeadLetter(name);
      void refreshStatus();
      void queue.drain();
    },
    async discardDeadLetter(name) {
      await outbox.discardDeadLetter(name);
      void refreshStatus();
    },
    resume: () => queue.resume(),
    sync: () => queue.drain(),
    close() {
      closed = true;
      queue.close();
      target.removeEventListener?.('online', onOnline);
      if (!ours) outbox.close();
    },
  };
}

function describe(error: unknown): string {
  if (error === null || error === undefined) return 'unknown error';
  return error instanceof Error ? error.message : String(error);
}
