/**
 * The operations of the outbox (the durable sync state of a hybrid store) and the values they take.
 */
import type { ConfigEntry, LinkConfig } from '@linkconfig/shared';
import type { CacheOutcome, RemoteUpdate } from './cache-rule.js';
import type {
  ConflictRecord,
  DeadLetter,
  OutboxEntry,
  VersionRecord,
} from './sync-records.js';

/** A local save (`config`) or remove (`config: null`) to apply and queue. */
export interface LocalWrite {
  name: string;
  config: LinkConfig | null;
  token: string;
  queuedAt: string;
  /**
   * Whether a local copy existed before (only needed when the outbox does not hold the configs): a name
   * with no local copy and no known version is a new one, created with `If-None-Match: *`.
   */
  localExisted?: boolean;
}

/** The server's side of a conflict. */
export interface RemoteSide {
  entry: ConfigEntry | null;
  etag: string | null;
}

/**
 * How a conflict ends: the server's version wins, or the local side (`keep-local`) or a merged config is
 * sent again, this time against the server's version.
 */
export type Settlement =
  | { kind: 'take-remote' }
  | { kind: 'keep-local'; token: string; queuedAt: string }
  | { kind: 'merge'; config: LinkConfig; token: string; queuedAt: string };

/** The sync state operations of a hybrid store. */
export interface Outbox {
  /** Applies a local write and queues it (or, while the name is in conflict, makes it the local side). */
  queue(write: LocalWrite): Promise<void>;
  get(name: string): Promise<OutboxEntry | undefined>;
  /** Pending entries, oldest first. */
  all(): Promise<OutboxEntry[]>;
  /**
   * The server accepted `entry` and now holds `etag` (`undefined` when it sent none). Deletes the entry
   * if it was not replaced meanwhile; a replacement is re-based on the new version instead.
   */
  acknowledge(entry: OutboxEntry, etag: string | undefined): Promise<void>;
  /** Moves the entry to the dead letters, if it still carries the same token. */
  deadLetter(letter: DeadLetter): Promise<boolean>;
  deadLetters(): Promise<DeadLetter[]>;
  /** Queues a dead letter again (unless a newer write for the name waits) and forgets it. */
  retryDeadLetter(
    name: string,
    fresh: { token: string; queuedAt: string },
  ): Promise<boolean>;
  /**
   * Forgets a dead letter; the local copy goes back to the server version the write was based on.
   * Resolves with that version (`restored: null`: the server has no such config, so the local copy is
   * removed), or `null` when nothing was put back (no letter, an unknown base, a newer write waiting).
   */
  discardDeadLetter(
    name: string,
  ): Promise<{ restored: LinkConfig | null } | null>;
  /** Moves the entry to the conflicts with the server's side, if it still carries the same token. */
  setConflict(entry: OutboxEntry, remote: RemoteSide): Promise<boolean>;
  conflicts(): Promise<ConflictRecord[]>;
  /**
   * Replaces the entry (if it still carries the same token) by `merged` — the clean merge of its write
   * with the server's `remote` version — now based on that version, and makes it the local copy. A
   * removal on both sides leaves nothing to send. Resolves with whether it replaced the entry.
   */
  rebase(
    entry: OutboxEntry,
    merged: LinkConfig | null,
    remote: RemoteSide,
  ): Promise<boolean>;
  /** Ends a conflict; resolves with the record it ended, or `null` when there was none. */
  settleConflict(
    name: string,
    settlement: Settlement,
  ): Promise<ConflictRecord | null>;
  version(name: string): Promise<VersionRecord | undefined>;
  versions(): Promise<VersionRecord[]>;
  /**
   * Takes a version read from the server into the local copy, unless a local change or a newer version
   * got there first (see `cache-rule.ts`).
   */
  cacheRemote(update: RemoteUpdate): Promise<CacheOutcome>;
  /**
   * Reads every fact of the sync state once (pending writes, dead letters, conflicts) and tells the
   * watchers, as one change per kind: how a store learns the state it starts from. Other reads tell
   * nobody; only writes do.
   */
  readFacts(): Promise<void>;
  /**
   * Calls `listener` with what each committed write transaction changed (here, or in another tab over
   * the same database: `elsewhere`), and with what {@link readFacts} found; returns the unsubscribe
   * function.
   */
  watch(listener: (change: SyncChange) => void): () => void;
  close(): void;
}

export type {
  CacheOutcome,
  ConflictRecord,
  DeadLetter,
  OutboxEntry,
  RemoteUpdate,
  VersionRecord,
};

/** What waits about one config name; a name with nothing waiting has no facts. */
export interface NameSync {
  /** A write waiting for the server: a save or a remove, queued at `since` (ISO 8601). */
  pending?: { op: 'save' | 'remove'; since: string };
  /** A write the server refused for good (`status`, `error`) at `since`. */
  deadLetter?: { status: number; error: string; since: string };
  /** A write that met a newer server version, found at `since`. */
  conflict?: { since: string };
}

/**
 * What an outbox operation changed: the facts of the one name a transaction wrote, or every fact of
 * one kind that a full read found (which also drops names another tab settled meanwhile).
 */
export type SyncChange =
  | {
      kind: 'name';
      name: string;
      facts: NameSync;
      /** Another tab over the same database wrote it (its local copy may have changed too). */
      elsewhere?: true;
    }
  | {
      kind: 'all';
      fact: keyof NameSync;
      facts: ReadonlyMap<string, NameSync[keyof NameSync]>;
    };
