/**
 * The local side of a hybrid store: the local configs plus the durable sync state (outbox, dead letters,
 * conflicts, known server versions). With this package's IndexedDB store both live in one database and
 * change in one transaction. Any other ConfigStore (for example {@link createMemoryStore}) gets the sync
 * state in a database of its own, and this adapter keeps the two in step.
 */
import type { ConfigEntry, LinkConfig } from '@linkconfig/shared';
import type { ConfigStore } from '../config-store.js';
import { sameConfig } from '../indexeddb/cache-rule.js';
import { createConfigDb } from '../indexeddb/config-db.js';
import { isIndexedDBConfigStore } from '../indexeddb/indexeddb-store.js';
import { createDrafts } from '../indexeddb/drafts.js';
import type { Drafts } from '../indexeddb/drafts.js';
import { createOutbox } from '../indexeddb/outbox.js';
import type {
  CacheOutcome,
  ConflictRecord,
  LocalWrite,
  Outbox,
  OutboxEntry,
  RemoteSide,
  RemoteUpdate,
  Settlement,
} from '../indexeddb/outbox.js';

/** What the hybrid store works on locally. */
export interface Replica {
  loadEntry(name: string): Promise<ConfigEntry | null>;
  list(): Promise<string[]>;
  /** The sync state; its writes that change local copies go through the methods below. */
  readonly outbox: Outbox;
  /** Unsaved edits kept beside the sync state. */
  readonly drafts: Drafts;
  /** Applies a local save or remove and queues it for the server. */
  queue(write: Omit<LocalWrite, 'localExisted'>): Promise<void>;
  /** Takes a server version into the local copy when the cache rule allows it. */
  cacheRemote(update: RemoteUpdate): Promise<CacheOutcome>;
  settleConflict(
    name: string,
    settlement: Settlement,
  ): Promise<ConflictRecord | null>;
  /** Forgets a dead letter; the local copy goes back to the server version it was based on. */
  discardDeadLetter(name: string): Promise<void>;
  /** Replaces a pending write by its clean merge with the server's version (`Outbox.rebase`). */
  rebase(
    entry: OutboxEntry,
    merged: LinkConfig | null,
    remote: RemoteSide,
  ): Promise<boolean>;
  /** Whether a conditional read (`If-None-Match` with the known ETag) can be trusted to keep it fresh. */
  readonly conditionalReads: boolean;
  close(): void;
}

/** Options of {@link createReplica}. */
export interface ReplicaOptions {
  /** Database name of the sync state when `local` is not this package's IndexedDB store. */
  outboxDbName?: string;
  indexedDB?: IDBFactory;
}

/** Builds the replica over `local`. */
export function createReplica(
  local: ConfigStore,
  options: ReplicaOptions = {},
): Replica {
  if (isIndexedDBConfigStore(local)) {
    const { outbox, drafts } = local;
    return {
      drafts,
      loadEntry: (name) => local.loadEntry(name),
      list: () => local.list(),
      outbox,
      queue: (write) => outbox.queue(write),
      cacheRemote: (update) => outbox.cacheRemote(update),
      settleConflict: (name, settlement) =>
        outbox.settleConflict(name, settlement),
      rebase: (entry, merged, remote) => outbox.rebase(entry, merged, remote),
      discardDeadLetter: async (name) => {
        await outbox.discardDeadLetter(name);
      },
      conditionalReads: true,
      // The connection belongs to the IndexedDB store; its owner closes it.
      close: () => undefined,
    };
  }
  return createAdapter(local, options);
}

/**
 * A replica over a foreign ConfigStore. Its config writes and the sync state cannot share a transaction,
 * so the local store is written first (the outbox never holds a write the local store refused), and
 * every change runs one at a time so that the two agree within this tab.
 */
function createAdapter(local: ConfigStore, options: ReplicaOptions): Replica {
  const db = createConfigDb({
    dbName: options.outboxDbName ?? 'linkconfig-outbox',
    indexedDB: options.indexedDB,
  });
  const outbox = createOutbox(db, { ownsConfigs: false });
  const drafts = createDrafts(db);
  let tail: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const run = tail.then(work, work);
    tail = run.catch(() => undefined);
    return run;
  };
  const apply = (name: string, entry: ConfigEntry | null) =>
    entry ? local.save(name, entry.config) : local.remove(name);

  return {
    loadEntry: (name) => local.loadEntry(name),
    list: () => local.list(),
    outbox,
    drafts,
    queue: (write) =>
      serial(async () => {
        const existed = (await local.loadEntry(write.name)) !== null;
        if (write.config) await local.save(write.name, write.config);
        else await local.remove(write.name);
        await outbox.queue({ ...write, localExisted: existed });
      }),
    cacheRemote: (update) =>
      serial(async () => {
        const before = await local.loadEntry(update.name);
        const outcome = await outbox.cacheRemote(update);
        if (outcome === 'ignored') return outcome;
        // The outbox cannot see the local copy: compare here, so that a copy left stale by a failed
        // write is repaired by the next refresh and listeners hear only of real changes.
        const same =
          update.entry === null
            ? before === null
            : before !== null && sameConfig(before, update.entry);
        if (same) return 'same';
        await apply(update.name, update.entry);
        return 'changed';
      }),
    settleConflict: (name, settlement) =>
      serial(async () => {
        const settled = await outbox.settleConflict(name, settlement);
        if (!settled) return null;
        // With keep-local the local store already holds the local side.
        if (settlement.kind === 'take-remote')
          await apply(name, settled.remote);
        else if (settlement.kind === 'merge')
          await local.save(name, settlement.config);
        return settled;
      }),
    rebase: (entry, merged, remote) =>
      serial(async () => {
        const done = await outbox.rebase(entry, merged, remote);
        if (done) {
          if (merged === null) await local.remove(entry.name);
          else await local.save(entry.name, merged);
        }
        return done;
      }),
    discardDeadLetter: (name) =>
      serial(async () => {
        const put = await outbox.discardDeadLetter(name);
        if (put === null) return;
        if (put.restored === null) await local.remove(name);
        else await local.save(name, put.restored);
      }),
    conditionalReads: false,
    close: () => outbox.close(),
  };
}
