/**
 * The storage boundary of the server: one interface, one file per adapter, one contract suite
 * (`config-repository.contract.ts`) that every adapter runs.
 */
import type { Author, ChangeEvent } from '@linkconfig/shared';
import type { EntityTags } from './etag.js';
import type { HookStore } from './hook-store.js';
import type { KeyRepository, StoredKey } from './key-repository.js';
import type { LinkHealthStore } from './link-health-store.js';
import type { PublishStore, StoredPublish } from './publish-store.js';
import type { TextCut } from './log/revision-content.js';
import type { StoredText } from './stored-text.js';
import type {
  HistoryRepository,
  RevisionRecord,
  SummaryOver,
} from './log/history-repository.js';

export type {
  HistoryRepository,
  RevisionMeta,
  RevisionOp,
  RevisionRecord,
  RevisionSummary,
  StoredRevision,
  SummaryOver,
} from './log/history-repository.js';

/** One stored config: the JSON text exactly as received, plus the server's timestamps. */
export interface StoredConfig {
  readonly name: string;
  /** The config's JSON text as it was received (key order and unknown keys kept). */
  readonly json: string;
  /** ISO 8601 UTC with milliseconds. */
  readonly createdAt: string;
  /** ISO 8601 UTC with milliseconds. Changes on every write; never below `createdAt` or an earlier value. */
  readonly updatedAt: string;
  /** The database's revision at the write that stored it: increases on every write, never reused. */
  readonly version: number;
}

/** A name and the version stored under it. */
export interface NameVersion {
  readonly name: string;
  readonly version: number;
}

/**
 * Preconditions of a write, checked inside its transaction against the stored version: `ifMatch` needs
 * the current ETag in the list (`*`: the name exists), `ifNoneMatch` needs it absent (`*`: the name does
 * not exist).
 */
export interface WriteConditions {
  readonly ifMatch?: EntityTags | undefined;
  readonly ifNoneMatch?: EntityTags | undefined;
}

/** Options of a write. */
export interface WriteOptions extends WriteConditions {
  /**
   * The clock, read inside the transaction once the write lock is held (default: the system clock), so
   * a writer that waited for the lock does not stamp an earlier time than the writer before it.
   */
  readonly now?: () => Date;
  /** What kind of write this is, as history records it (default `put`; a delete is always `delete`). */
  readonly op?: 'put' | 'patch' | 'restore';
  /** Who asked for it (`null` or absent: nobody known). */
  readonly author?: Author | null;
  /** The request's `X-Request-Id`, kept with the write's revision. */
  readonly requestId?: string;
  /**
   * For a name that does not exist yet: the creation time to keep (a restore from a backup), ISO 8601
   * UTC with milliseconds; never later than the write's `updatedAt`. Ignored when the name exists.
   */
  readonly createdAt?: string;
  /**
   * The text of a stored version the caller already holds, with its version number. When that is
   * exactly the version the write finds stored under its lock, the revision's delta is made against
   * this text instead of reading the stored one again; any other version is ignored (and the stored
   * text read). It must be the text stored for that version, unchanged.
   */
  readonly heldText?:
    { readonly version: number; readonly json: string } | undefined;
  /**
   * What this write changes, worked out by the caller against the version it expects to replace (`over`:
   * its version number, `null` when it expects no stored config), kept with the revision when that is
   * exactly what the write finds under its lock; otherwise the revision is written without a summary
   * (history fills it in when it lists it, `history-service.ts`).
   */
  readonly summary?: SummaryOver | undefined;
  /**
   * Where the text written first and last differs from a text the caller compared it with, when it found
   * that already (a PUT read as an edit): the history's delta against exactly that text takes the cut
   * instead of comparing both again (`encodeRevision`).
   */
  readonly cut?: TextCut | undefined;
}

/** A write that happened. */
export interface PutResult {
  readonly ok: true;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly version: number;
  /** The new version's ETag (see `etag.ts`). */
  readonly etag: string;
  /** `true` when the name did not exist before. */
  readonly created: boolean;
  /** The revision of the name's history this write made. */
  readonly rev: number;
}

/** What an update stores, decided from the stored version (see `ConfigRepository.update`). */
export type UpdateDecide = (current: StoredConfig | null) => {
  readonly json: StoredText;
};

/** A delete that was allowed; `removed` says whether anything existed. */
export interface RemoveResult {
  readonly ok: true;
  readonly removed: boolean;
}

/** A write refused by its preconditions: nothing changed. */
export interface Refused {
  readonly ok: false;
  /** The stored version's ETag, `null` when the name does not exist. */
  readonly currentEtag: string | null;
}

/**
 * One committed change as the feed reads it from the log: a revision of a config (`put` for a put, patch or
 * restore; `delete`), `id` its change id (also the stored `version` after a put).
 */
export type Change = ChangeEvent & { readonly id: number };

/**
 * The log after an id, oldest first (see {@link ConfigRepository.readLog}). `reset` when the reader's
 * position lies before the horizon (the log before it was replaced: a restore from a backup, or an upgrade
 * from a release whose feed did not keep it) or beyond the newest id (never given out here): the reader
 * must re-read everything, then go on from `head`.
 */
export type ChangesPage =
  | {
      readonly reset: false;
      readonly head: number;
      /** The writes of configs in the page, by id. */
      readonly changes: readonly Change[];
      /** The other entries of the page ({@link ConfigRepository.appendEvent}), by id. */
      readonly events: readonly LogEvent[];
      /** The highest id the page covers (`after` when it is empty): where the next page starts. */
      readonly through: number;
    }
  | { readonly reset: true; readonly head: number };

export type { LogEvent, NewLogEvent } from './log-event.js';
import type { LogEvent, NewLogEvent } from './log-event.js';

/**
 * Durable storage of named configs. Every method is atomic: a write is either fully stored or not at all.
 * A resolved `put` or `remove` is durable (survives a crash of the process).
 *
 * Every write that changes something takes the next value of one revision counter per database, inside
 * its transaction and before anything else, so writers are serialized and revisions are handed out in
 * commit order: whoever reads "changes after N" can never later see a smaller id appear.
 */
export interface ConfigRepository extends HistoryRepository {
  /** The access keys stored in the same database (`key-repository.ts`). */
  readonly keys: KeyRepository;
  /** What the link checker knows of each URL, in the same database (`link-health-store.ts`). */
  readonly linkHealth: LinkHealthStore;
  /** Webhooks and their delivery logs, in the same database (`hook-store.ts`). */
  readonly hooks: HookStore;
  /** Each config's publish record and the log of publishes, in the same database (`publish-store.ts`). */
  readonly publish: PublishStore;
  /** Every name, sorted by code point. */
  list(): Promise<string[]>;
  /** The stored config, or `null` when the name does not exist. */
  get(name: string): Promise<StoredConfig | null>;
  /** Every name with its current version, sorted by code point; no JSON is read. */
  listVersions(): Promise<NameVersion[]>;
  /** The current version of a name without reading its JSON, or `null`. */
  version(name: string): Promise<number | null>;
  /**
   * Creates or overwrites when the preconditions hold; `createdAt` is kept on overwrite, `updatedAt` set
   * from `options.now` (never below the stored timestamps). Records the change. `json` given with its
   * UTF-8 bytes (`Utf8Text`) may be stored from the bytes; the text stored is the same.
   */
  put(
    name: string,
    json: StoredText,
    options?: WriteOptions,
  ): Promise<PutResult | Refused>;
  /**
   * Stores what `decide` makes of the stored version of `name` (`null` when the name does not exist),
   * when the preconditions hold. `decide` runs inside the write transaction, under the write lock, on the
   * version the write commits over (so a change computed from it never overwrites a write in between,
   * and needs no retry); it must be synchronous and must not touch the repository. An error it throws
   * ends the write with nothing stored, and the returned promise rejects with that error. `heldText`
   * spares reading the stored text when it is the version stored. Recorded like a `put` (`options.op`).
   */
  update(
    name: string,
    decide: UpdateDecide,
    options?: WriteOptions,
  ): Promise<PutResult | Refused>;
  /**
   * Deletes when the preconditions hold. A missing name is not an error (`removed: false`, no change
   * recorded) unless `ifMatch` asked for it to exist.
   */
  remove(name: string, options?: WriteOptions): Promise<RemoveResult | Refused>;
  /**
   * Appends an entry that is not a write of a config to the log ({@link LogEvent}), in a write
   * transaction of its own (the same lock and id counter as writes): readers of {@link readLog} see it
   * among the writes, in commit order. History and the audit trail of configs do not list it; backups do
   * not carry it. Pruned with the revisions by the one retention, `HISTORY_KEEP` (`history-keep.ts`):
   * with a count, each config's newest that many such entries stay; with an age, those younger than it;
   * with `all`, every one.
   */
  appendEvent(event: NewLogEvent): Promise<LogEvent>;
  /**
   * A value that changes whenever a write may have happened, by this process or another one. While it
   * is unchanged, callers may reuse what they read before. Costs at most one cheap query.
   */
  changeToken(): Promise<string>;
  /** The latest revision (the id of the latest change); 0 for a new database. */
  head(): Promise<number>;
  /**
   * The log of changes: up to `limit` revisions with a change id above `after`, oldest first, as the
   * change feed sends them (see {@link ChangesPage}). The log is the revisions table: the feed, the audit
   * trail ({@link HistoryRepository.auditTrail}) and history read the same rows, pruned by one retention
   * (`HISTORY_KEEP`), which never removes a config's newest revision, so a reader that resumes after a
   * pruning still ends on every config's current state.
   */
  readLog(page: {
    readonly after: number;
    readonly limit: number;
  }): Promise<ChangesPage>;
  /**
   * Calls `listener` whenever new changes may have been committed: at once for writes through this
   * repository, within about a second for other processes or instances. Returns the unsubscribe call.
   * The listener only hints; {@link readLog} says what changed.
   */
  watch(listener: () => void): () => void;
  /** Number of stored configs. */
  count(): Promise<number>;
  /**
   * The whole database from one consistent snapshot (writes committed after the first row is read are
   * not seen), while other readers and writers go on: every config in code-point order of names, then
   * every publish record (by name, in the same order), then every kept revision as stored, by name then
   * `rev`, then every access key (oldest first). For backups; rows are read a few at a time, so memory
   * stays small.
   */
  snapshot(): AsyncIterable<SnapshotItem>;
  /**
   * Writes rows of a backup back as they are, in one transaction (all or nothing): configs with their
   * versions and timestamps, revisions with their numbers, change ids and stored content. The database's
   * revision counter is raised to the highest id written (so later writes continue after them) and the
   * log's horizon to it (readers of the feed from before re-list). Publish records (`published`) are
   * written in the same transaction, as stored. Rejects when a name, a revision or a publish record is
   * already stored. With `replace`, every config, revision and publish record is deleted first (same
   * transaction).
   */
  restoreRows(
    rows: RestoreRows,
    options?: { readonly replace?: boolean },
  ): Promise<void>;
  /** Releases the connection; later calls reject. */
  close(): Promise<void>;
}

/** One item of {@link ConfigRepository.snapshot}. */
export type SnapshotItem =
  | { readonly kind: 'config'; readonly config: StoredConfig }
  | { readonly kind: 'revision'; readonly revision: RevisionRecord }
  | { readonly kind: 'key'; readonly key: StoredKey }
  | { readonly kind: 'publish'; readonly publish: StoredPublish };

/** Rows for {@link ConfigRepository.restoreRows}. */
export interface RestoreRows {
  readonly configs: readonly StoredConfig[];
  readonly revisions: readonly RevisionRecord[];
  /** Publish records, as stored (none when absent). */
  readonly published?: readonly StoredPublish[];
}

/** Code-point order of names, the order `GET /configs` promises (shared with the client package). */
export { compareNames } from '@linkconfig/shared';
