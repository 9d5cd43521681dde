import { createHybridHistory } from './hybrid-history.js';
import type { HistoryStore } from '../remote/remote-history.js';
import type { LinkConfig } from '@linkconfig/shared';
import type { BackoffOptions } from '../backoff.js';
import type { ConfigStore, RemoteOperation } from '../config-store.js';
import { Reachability } from '../reachability.js';
import type { DeadLetter } from '../indexeddb/outbox.js';
import { createConflicts } from './conflicts.js';
import type { Conflict, ConflictChoice, ConflictHandler } from './conflicts.js';
import type { MergeReport } from './auto-merge.js';
import { createDelivery } from './delivery.js';
import { createEdits, EditBases } from './edits.js';
import type { EditStore } from './edits.js';
import { FlushError } from './flush-error.js';
import { StatusBoard, describe } from './hybrid-status.js';
import type { HybridStatus } from './hybrid-status.js';
import { startLiveUpdates } from './live-updates.js';
import { createReadThrough } from './read-through.js';
import { createReplica } from './replica.js';
import { SyncQueue } from './sync-queue.js';

/** Options of {@link createHybridStore}. */
export interface HybridStoreOptions {
  local: ConfigStore;
  remote: ConfigStore;
  /**
   * Called once per failed remote operation (not on every retry), for each write set aside as a dead
   * letter, and per conflict; `op` `watch` is the change feed (`name` is then empty). `error` is a
   * `RemoteStoreError` for every failure of a remote store of this package (a 412 conflict included).
   * Other errors arrive as thrown: those of a `remote` that is a plain `ConfigStore`, what `onConflict`
   * threw (a `TypeError` for an answer that is not a choice), or a `LocalStoreError` when a conflict's
   * settlement could not be stored. Hence `unknown`: narrow it with `instanceof`.
   */
  onRemoteError?: (op: RemoteOperation, name: string, error: unknown) => void;
  /**
   * Decides a conflict (a write refused because the server holds a newer version) as soon as it is
   * found. Without it, conflicts wait in `conflicts()` for `resolveConflict()`.
   */
  onConflict?: ConflictHandler;
  /**
   * Called when a write met a newer server version and was merged with it cleanly, without asking
   * (H21): `appliedRemote` lists the other version's changes now in the local copy, `keptLocal` the
   * local changes sent on top of it (paths such as `['allLinks', 'a', 'url']`).
   */
  onMerged?: (name: string, report: MergeReport) => void;
  /** Follows the server's change feed and refreshes changed names at once (needs a remote store of this package). */
  live?: boolean;
  /** Database name of the outbox when `local` is not an IndexedDB store of this package. */
  outboxDbName?: string;
  /** The IndexedDB factory for that outbox (tests). */
  indexedDB?: IDBFactory;
  /** Retry delays of delivery and of reconnecting the change feed. */
  backoff?: BackoffOptions;
  lockName?: string;
  /**
   * Whether the server answers, shared with the app's own calls (pass the one the app's `fetch` goes
   * through); by default the store keeps its own. `getStatus().remoteReachable` is its value.
   */
  reachability?: Reachability;
  /** The bases of the edits in progress; pass the previous store's when making one anew. */
  editBases?: EditBases;
}

/**
 * A ConfigStore that writes through to local and remote, reads local first and syncs in the background.
 * Its history calls go to the server while it is reachable (`hybrid-history.ts`); the edits a page
 * makes through it, with the version each started from, are in `edits.ts`.
 */
export interface HybridStore extends ConfigStore, HistoryStore, EditStore {
  /**
   * Resolves when every queued write reached the server; rejects with a {@link FlushError} saying why
   * not: at once for a dead letter, a conflict or paused delivery, else once `timeoutMs` (default
   * 30 000) passed with writes still waiting. Retries keep their backoff and any `Retry-After`.
   */
  flush(options?: { timeoutMs?: number }): Promise<void>;
  getStatus(): HybridStatus;
  /** Calls `listener` with the status whenever it changes; returns the unsubscribe function. */
  subscribe(listener: (status: HybridStatus) => void): () => void;
  /**
   * Calls `listener` with a name whenever its local copy changed through the server (a refresh, a live
   * update, a removal, a conflict resolved) or in another tab over the same database, or a name not
   * cached here changed on the server.
   */
  subscribeChanges(listener: (name: string) => void): () => void;
  /**
   * The names of the server's latest answer to `list()` in this store's life (`null` before one): what
   * the server holds, as opposed to what this browser keeps.
   */
  serverNames(): string[] | null;
  /** Writes the server refused for good. */
  deadLetters(): Promise<DeadLetter[]>;
  /** Queues a dead letter again (for example after fixing the cause), or drops it. */
  retryDeadLetter(name: string): Promise<void>;
  /**
   * Drops a dead letter: the local copy goes back to the server's version the write was based on (a
   * config the server never had, such as one the key may not create, is removed here).
   */
  discardDeadLetter(name: string): Promise<void>;
  /** Writes that met a newer server version and wait for a decision. */
  conflicts(): Promise<Conflict[]>;
  /** Ends the conflict of `name`: keep the local value, take the server's, or send a merged config. */
  resolveConflict(name: string, choice: ConflictChoice): Promise<void>;
  /** Resumes delivery paused by a 401 (for example after a new key). */
  resume(): void;
  /**
   * Starts a delivery pass now and resolves when it ended; never rejects (failures go to
   * `onRemoteError` and the status). While the server's `Retry-After` holds, it resolves at once and
   * the pass starts when the wait is over.
   */
  sync(): Promise<void>;
  /**
   * Stops timers, listeners and the change feed, and closes an outbox database the store opened itself;
   * the `local` store stays open (its owner closes it). The store must not be used afterwards.
   */
  close(): void;
}

const newToken = () =>
  `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;

/**
 * Creates the offline-first store (docs/client-stores.md): writes land locally and in a durable outbox
 * at once, reads come from local first, and a background queue delivers to the remote — with
 * preconditions, so that two writers never silently overwrite each other.
 *
 * @example
 * const store = createHybridStore({
 *   local: await createIndexedDBStore(),
 *   remote: createRemoteStore({ baseUrl: location.origin }),
 *   live: true,
 *   onRemoteError: (op, name, err) => console.warn(op, name, err),
 * });
 * store.subscribe((s) => render(s.pending, s.conflicts, s.live));
 */
export function createHybridStore(options: HybridStoreOptions): HybridStore {
  const { remote } = options;
  const replica = createReplica(options.local, options);
  const { outbox } = replica;
  const changeListeners = new Set<(name: string) => void>();
  const { saved, removed, ...edits } = createEdits(
    replica.drafts,
    options.editBases ?? new EditBases(),
  );
  let closed = false;

  const report = (op: RemoteOperation, name: string, error: unknown) => {
    try {
      options.onRemoteError?.(op, name, error);
    } catch {
      // A throwing callback must not break the store.
    }
  };
  const changed = (name: string) => {
    for (const listener of changeListeners) {
      try {
        listener(name);
      } catch {
        // As above.
      }
    }
  };

  const reachability = options.reachability ?? new Reachability();
  const queue: SyncQueue = new SyncQueue({
    outbox,
    reachability,
    delivery: createDelivery(remote),
    backoff: options.backoff,
    lockName: options.lockName,
    rebase: (entry, merged, side) => replica.rebase(entry, merged, side),
    events: {
      onFailure: report,
      onChange: () => status.queueChanged(),
      onConflict: (name) => void conflicts.offer(name),
      onMerged: (name, merge) => {
        status.merged(name, merge);
        changed(name);
        try {
          options.onMerged?.(name, merge);
        } catch {
          // A throwing callback must not break the store.
        }
      },
    },
  });
  const status = new StatusBoard(queue);
  // The one channel between tabs: another tab's write arrives here as the facts it left, and as a
  // change of that name's local copy.
  const unwatch = outbox.watch((change) => {
    status.apply(change);
    if (change.kind === 'name' && change.elsewhere) changed(change.name);
  });
  const unreach = reachability.subscribe(() => status.queueChanged());
  const conflicts = createConflicts({
    replica,
    onConflict: options.onConflict,
    report,
    changed,
    settled: () => void queue.drain(),
  });
  const readThrough = createReadThrough({
    replica,
    remote,
    queue,
    report,
    changed,
    statusChanged: () => status.queueChanged(),
    isClosed: () => closed,
  });

  const write = async (name: string, config: LinkConfig | null) => {
    if (closed) throw new Error('This hybrid store is closed');
    await replica.queue({
      name,
      config,
      token: newToken(),
      queuedAt: new Date().toISOString(),
    });
    // An edit of it now starts from what was saved (no await between this and the answer).
    if (config === null) removed(name);
    else saved(name, config);
    // During a Retry-After this only makes sure a pass runs when the wait is over.
    void queue.drain();
  };

  const onOnline = () => queue.online();
  const target = globalThis as {
    addEventListener?: typeof addEventListener;
    removeEventListener?: typeof removeEventListener;
  };
  target.addEventListener?.('online', onOnline);
  // The one full read of the sync state; from here on only writes tell what changes.
  outbox.readFacts().catch((error: unknown) => status.failed(error));
  void queue.drain();
  void conflicts.offerAll();
  const live = options.live
    ? startLiveUpdates({
        remote,
        readThrough,
        status,
        report,
        backoff: options.backoff,
      })
    : null;

  /** Why `flush` cannot succeed yet, or `null` when it should keep waiting. */
  const blockers = async () => {
    const [pending, dead, waiting] = await Promise.all([
      outbox.all(),
      outbox.deadLetters(),
      outbox.conflicts(),
    ]);
    const reasons: string[] = [];
    if (queue.paused)
      reasons.push(
        'delivery is paused: the server refused the credentials (401)',
      );
    for (const letter of dead)
      reasons.push(
        `"${letter.name}" was refused by the server (${letter.status}): ${letter.error}`,
      );
    const deciding = waiting.filter((c) => conflicts.deciding(c.name));
    for (const conflict of waiting)
      if (!conflicts.deciding(conflict.name))
        reasons.push(
          `"${conflict.name}" conflicts with a newer version on the server; choose one with resolveConflict()`,
        );
    return { pending: pending.length + deciding.length, reasons };
  };

  return {
    ...edits,
    ...createHybridHistory({
      remote,
      reachability,
      refresh: async (name) => {
        await readThrough.refresh(name);
        changed(name);
      },
    }),
    save: (name, config) => write(name, config),
    remove: (name) => write(name, null),
    loadEntry: (name) => readThrough.loadEntry(name),
    load: async (name) => (await readThrough.loadEntry(name))?.config ?? null,
    list: () => readThrough.list(),
    serverNames: () => readThrough.serverNames(),
    async flush(flushOptions = {}) {
      const deadline = Date.now() + (flushOptions.timeoutMs ?? 30_000);
      for (let first = true; ; first = false) {
        // Respect the backoff: only start a pass when no retry is already scheduled.
        if (first || !queue.waiting) await queue.drain();
        const { pending, reasons } = await blockers();
        if (pending === 0 && reasons.length === 0) return;
        if (pending === 0 || reasons.length > 0) throw new FlushError(reasons);
        if (Date.now() >= deadline || closed) {
          throw new FlushError([
            `${pending} change(s) not delivered: ${describe(queue.lastError)}`,
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
    getStatus: () => status.current,
    subscribe: (listener) => status.subscribe(listener),
    subscribeChanges(listener) {
      changeListeners.add(listener);
      return () => changeListeners.delete(listener);
    },
    deadLetters: () => outbox.deadLetters(),
    async retryDeadLetter(name) {
      await outbox.retryDeadLetter(name, {
        token: newToken(),
        queuedAt: new Date().toISOString(),
      });
      void queue.drain();
    },
    async discardDeadLetter(name) {
      await replica.discardDeadLetter(name);
      changed(name);
    },
    conflicts: () => conflicts.list(),
    resolveConflict: (name, choice) => conflicts.resolve(name, choice),
    resume: () => queue.resume(),
    sync: () => queue.drain(),
    close() {
      closed = true;
      unwatch();
      unreach();
      queue.close();
      live?.close();
      target.removeEventListener?.('online', onOnline);
      replica.close();
    },
  };
}
