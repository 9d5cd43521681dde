/**
 * The one write algorithm of every adapter: preconditions → (an update's decision on the stored
 * version) → next revision → stamp → row → revision → result. Each backend supplies the small steps of
 * its write transaction ({@link WriteTransaction}); what a write means (which checks, which revision,
 * which timestamps, which answer) is here once.
 *
 * One write, one log: the revision appended in the same transaction as the row (`log/revision-write.ts`)
 * is the config's history, the audit trail and the change feed at once (`ConfigRepository.readLog`).
 */
import type {
  LogEvent,
  NewLogEvent,
  PutResult,
  Refused,
  RemoveResult,
  StoredConfig,
  UpdateDecide,
  WriteOptions,
} from './config-repository.js';
import { etagOf } from './etag.js';
import { textOf } from './stored-text.js';
import type { StoredText } from './stored-text.js';
import { appendRevision, readHistoryBefore } from './log/revision-write.js';
import type { HistorySteps } from './log/revision-write.js';
import type { VersionStamp } from './etag.js';
import {
  nextUpdatedAt,
  preconditionsHold,
  systemClock,
} from './write-rules.js';

/** What a write reads of the stored row of its name. */
export interface StoredStamp extends VersionStamp {
  readonly createdAt: string;
}

/** The stamp of a stored row as SQL adapters read it (`version` is a string from PostgreSQL's bigint). */
export function stampOfRow(row: {
  readonly created_at: string;
  readonly updated_at: string;
  readonly version: number | string;
}): StoredStamp {
  return {
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    version: Number(row.version),
  };
}

/**
 * A row a write stores: the stored config, its text possibly with its UTF-8 bytes (`Utf8Text`), which a
 * backend may store as they are rather than encoding the text again.
 */
export interface WrittenRow extends Omit<StoredConfig, 'json'> {
  readonly json: StoredText;
}

/**
 * The steps a backend supplies, each run inside one write transaction that holds the write lock (so
 * what `readCurrent` returns cannot change before the transaction ends). The transaction commits when the
 * algorithm appended a revision, and need not otherwise (a refused write or the delete of a missing name).
 */
export interface WriteTransaction extends HistorySteps {
  /** The stored stamp of `name`, or `null` when the name does not exist. */
  readCurrent(name: string): StoredStamp | null;
  /** The next value of the database's revision counter, taken by this write. */
  nextRevision(): number;
  /**
   * Stores `row`: a new row when `created`, else it replaces the stored one. May return the stored text's
   * size in UTF-8 bytes when the backend has it at no cost (SQLite: from the statement that wrote it), so
   * the revision need not encode the text again to count them.
   */
  writeRow(row: WrittenRow, created: boolean): number | void;
  /** Deletes the row of `name` (which exists). */
  deleteRow(name: string): void;
  /** Appends an entry of the log that is not a write of a config. */
  appendEvent(event: LogEvent): void;
}

/** Appends `event` to the log under the next change id (see `ConfigRepository.appendEvent`). */
export function appendLogEvent(
  tx: WriteTransaction,
  event: NewLogEvent,
): LogEvent {
  if (['put', 'patch', 'restore', 'delete'].includes(event.type)) {
    throw new Error(`"${event.type}" is a write, not an event`);
  }
  // The time first: a clock that throws leaves no id taken.
  const at = (event.now ?? systemClock)().toISOString();
  const id = tx.nextRevision();
  const entry: LogEvent = {
    id,
    type: event.type,
    name: event.name,
    at,
    by: event.by ?? null,
    requestId: event.requestId ?? null,
    detail: event.detail ?? null,
  };
  tx.appendEvent(entry);
  return entry;
}

/** A kept creation time, never later than the write's own time (ISO texts in UTC order as times do). */
const earlierOf = (kept: string | undefined, updatedAt: string): string =>
  kept !== undefined && kept < updatedAt ? kept : updatedAt;

const refusal = (current: StoredStamp | null): Refused => ({
  ok: false,
  currentEtag: current === null ? null : etagOf(current),
});

/** Creates or overwrites `name` when the preconditions hold (see `ConfigRepository.put`). */
export function putConfig(
  tx: WriteTransaction,
  { name, json }: { readonly name: string; readonly json: StoredText },
  options: WriteOptions,
): PutResult | Refused {
  const previous = tx.readCurrent(name);
  if (!preconditionsHold(previous, options)) return refusal(previous);
  return storeOver(tx, { name, json, previous }, options);
}

/**
 * Stores what `decide` makes of the version stored under `name` when the preconditions hold (see
 * `ConfigRepository.update`): the stored version is read under the write lock, so the change applies to
 * exactly the version it is committed over. An error `decide` throws ends the write (nothing stored).
 */
export function updateConfig(
  tx: WriteTransaction,
  { name, decide }: { readonly name: string; readonly decide: UpdateDecide },
  options: WriteOptions,
): PutResult | Refused {
  const previous = tx.readCurrent(name);
  if (!preconditionsHold(previous, options)) return refusal(previous);
  let current: StoredConfig | null = null;
  let held = options.heldText;
  if (previous !== null) {
    const json =
      held !== undefined && held.version === previous.version
        ? held.json
        : tx.readCurrentJson(name);
    current = { name, json, ...previous };
    held = { version: previous.version, json };
  }
  const { json } = decide(current);
  return storeOver(
    tx,
    { name, json, previous },
    { ...options, heldText: held },
  );
}

/** The write of `json` over `previous` (`null`: the name does not exist), its preconditions checked. */
function storeOver(
  tx: WriteTransaction,
  write: {
    readonly name: string;
    readonly json: StoredText;
    readonly previous: StoredStamp | null;
  },
  options: WriteOptions,
): PutResult {
  const { name, json, previous } = write;
  const version = tx.nextRevision();
  const now = (options.now ?? systemClock)();
  const updatedAt = nextUpdatedAt(now, previous);
  const createdAt =
    previous?.createdAt ?? earlierOf(options.createdAt, updatedAt);
  const created = previous === null;
  const history = readHistoryBefore(tx, name, {
    version: previous?.version ?? null,
    held: options.heldText,
  });
  const bytes = tx.writeRow(
    { name, json, createdAt, updatedAt, version },
    created,
  );
  const etag = etagOf({ version, updatedAt });
  const stored = { json: textOf(json), etag, bytes: bytes ?? undefined };
  const over = previous?.version ?? null;
  const facts = { name, id: version, updatedAt, options, stored, over };
  const rev = appendRevision(tx, history, facts);
  return { ok: true, createdAt, updatedAt, version, etag, created, rev };
}

/**
 * Deletes `name` when the preconditions hold (see `ConfigRepository.remove`). A missing name takes no
 * revision and records no change.
 */
export function removeConfig(
  tx: WriteTransaction,
  name: string,
  options: WriteOptions,
): RemoveResult | Refused {
  const previous = tx.readCurrent(name);
  if (!preconditionsHold(previous, options)) return refusal(previous);
  if (previous === null) return { ok: true, removed: false };
  const id = tx.nextRevision();
  const now = (options.now ?? systemClock)();
  const updatedAt = nextUpdatedAt(now, previous);
  const history = readHistoryBefore(tx, name, { version: null });
  tx.deleteRow(name);
  const over = previous.version;
  const facts = { name, id, updatedAt, options, stored: null, over };
  appendRevision(tx, history, facts);
  return { ok: true, removed: true };
}
