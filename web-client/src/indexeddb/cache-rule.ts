/**
 * When a version read from the server may replace the local copy. A read can be slow: by the time its
 * answer arrives the app may have saved something newer, or another read may have brought a newer
 * version. The rule compares versions instead of trusting arrival order.
 */
import type { ConfigEntry } from '@linkconfig/shared';
import type { StoredConfigRecord } from './config-db.js';
import type { VersionRecord } from './sync-records.js';

/** A version of one name as the server answered it. */
export interface RemoteUpdate {
  name: string;
  /** What the server holds, or `null` when it has no such config. */
  entry: ConfigEntry | null;
  /** Its ETag; `undefined` when the server sent none. */
  etag?: string | null;
  /** The `rev` of the name's version record when the request was sent (0 when there was none). */
  seenRev: number;
}

/**
 * What caching did: `changed` the local config, found the `same` config (only version data updated), or
 * `ignored` the answer because a local change or a newer version came first.
 */
export type CacheOutcome = 'changed' | 'same' | 'ignored';

/** What the rule looks at, all read in the same transaction as the write that follows. */
export interface CacheFacts {
  update: RemoteUpdate;
  /** A local write of the name waits for the server. */
  pending: boolean;
  /** The name is in conflict or has a dead letter: its local value is someone's unsent work. */
  blocked: boolean;
  known: VersionRecord | undefined;
  /** The local copy; `undefined` when the caller keeps it elsewhere and compares it itself. */
  local: StoredConfigRecord | null | undefined;
}

/** Decides whether a server answer may change the local copy. */
export function resolveCache(facts: CacheFacts): CacheOutcome {
  const { update, known, local } = facts;
  // Local wins until the server acknowledged it: never overwrite or resurrect a waiting change.
  if (facts.pending || facts.blocked) return 'ignored';
  if ((known?.rev ?? 0) !== update.seenRev) {
    // The local copy changed after the request went out. Only a version the server dated later than
    // the one the local copy is may still replace it; anything else is an old answer.
    const newer =
      update.entry !== null &&
      known?.serverUpdatedAt !== undefined &&
      update.entry.meta.updatedAt > known.serverUpdatedAt;
    if (!newer) return 'ignored';
  }
  if (update.entry === null) {
    // Only a copy known to have come from the server is dropped: anything else may be data that was
    // never delivered (kept since before versions were tracked).
    if (typeof known?.etag !== 'string') return 'ignored';
    return local === null ? 'same' : 'changed';
  }
  if (local === undefined)
    return typeof known?.etag === 'string' && known.etag === update.etag
      ? 'same'
      : 'changed';
  return local !== null && sameConfig(local, update.entry) ? 'same' : 'changed';
}

/** The version record after caching `update` with `outcome` (not called for `ignored`). */
export function versionAfterCache(
  update: RemoteUpdate,
  known: VersionRecord | undefined,
  outcome: Exclude<CacheOutcome, 'ignored'>,
): VersionRecord {
  const rev = (known?.rev ?? 0) + (outcome === 'changed' ? 1 : 0);
  const record: VersionRecord = { name: update.name, rev };
  if (update.entry === null) {
    record.etag = null;
    record.base = null;
  } else {
    if (update.etag !== undefined) {
      record.etag = update.etag;
      record.base = update.entry.config;
    }
    record.serverUpdatedAt = update.entry.meta.updatedAt;
  }
  return record;
}

/** Whether two entries hold the same config (key order included: it is kept everywhere). */
export function sameConfig(a: ConfigEntry, b: ConfigEntry): boolean {
  return JSON.stringify(a.config) === JSON.stringify(b.config);
}
