import { compareNames } from '@linkconfig/shared';
import { appendLogEvent } from '../config-write.js';
import type { WriteTransaction } from '../config-write.js';
import { publishLogEntry, unpublishLogEntry } from '../publish-store.js';
import type { PublishStore, StoredPublish } from '../publish-store.js';

/** How a publish joins the memory repository's writes. */
export interface MemoryPublishWrites {
  /** Throws once the repository is closed. */
  readonly open: () => void;
  /** The write steps of the repository (the log and its id counter). */
  readonly tx: WriteTransaction;
  /** Tells the watchers of a write that happened. */
  readonly committed: () => void;
}

/** The memory store, with what snapshots and restores of the repository read and write. */
export interface MemoryPublish extends PublishStore {
  /** Every record, by name in code-point order. */
  readonly all: () => StoredPublish[];
  /**
   * Checks `restored` (throws when a name has a record already, or comes twice), and answers the step
   * that writes them as they are (after removing every record, with `replace`).
   */
  readonly restore: (
    restored: readonly StoredPublish[],
    replace: boolean,
  ) => () => void;
}

/**
 * Publish records in process memory. A publish or unpublish changes the record and appends its log
 * entry with nothing in between (no `await`): that is this adapter's transaction. The entry is made
 * first, so a failure there leaves the record as it was.
 */
export function createMemoryPublish({
  open,
  tx,
  committed,
}: MemoryPublishWrites): MemoryPublish {
  const records = new Map<string, StoredPublish>();
  return {
    all: () =>
      [...records.values()].sort((a, b) => compareNames(a.name, b.name)),
    restore: (restored, replace) => {
      const seen = new Set(replace ? [] : records.keys());
      for (const record of restored) {
        if (seen.has(record.name)) {
          throw new Error(`config "${record.name}" has a publish record`);
        }
        seen.add(record.name);
      }
      return () => {
        if (replace) records.clear();
        for (const record of restored) records.set(record.name, record);
      };
    },
    get: async (name) => {
      open();
      return records.get(name) ?? null;
    },
    version: async (name) => {
      open();
      const record = records.get(name);
      return record === undefined
        ? null
        : { version: record.version, hideBroken: record.hideBroken };
    },
    versions: async () => {
      open();
      return [...records.values()]
        .map(({ name, version, hideBroken }) => ({
          name,
          version,
          hideBroken,
        }))
        .sort((a, b) => compareNames(a.name, b.name));
    },
    origins: async (name) => {
      open();
      const chosen =
        name === undefined
          ? [...records.values()]
          : [records.get(name)].filter((r) => r !== undefined);
      return new Map(chosen.map((r) => [r.name, r.origins]));
    },
    set: async (record, requestId) => {
      open();
      const entry = appendLogEvent(tx, publishLogEntry(record, requestId));
      records.set(record.name, record);
      committed();
      return entry;
    },
    remove: async (name, origin) => {
      open();
      const record = records.get(name);
      if (record === undefined) return null;
      const entry = appendLogEvent(
        tx,
        unpublishLogEntry(name, record.rev, origin),
      );
      records.delete(name);
      committed();
      return entry;
    },
  };
}
