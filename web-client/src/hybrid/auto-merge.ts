/**
 * What a hybrid store does with a write that met a newer server version (412), before anyone is asked:
 * it merges the write with the server's version over the version the write was based on (the shared
 * three-way merge). A clean merge is sent at once; only true conflicts wait for a decision (H21).
 */
import {
  changedPaths,
  sanitizeConfigLinks,
  threeWayMerge,
} from '@linkconfig/shared';
import type { LinkConfig, MergePath } from '@linkconfig/shared';
import type { OutboxEntry, RemoteSide } from '../indexeddb/outbox.js';

/** What a clean merge took from each side (paths at the grain of the merge). */
export interface MergeReport {
  /** The other version's changes, taken into the local copy. */
  appliedRemote: MergePath[];
  /** The local changes, kept and sent on top of the other version. */
  keptLocal: MergePath[];
}

/** A clean merge of a write with the server's version, or `null` when someone must decide. */
export function cleanMerge(
  entry: OutboxEntry,
  remote: RemoteSide,
): ({ merged: LinkConfig | null } & MergeReport) | null {
  // Only edits of a version both sides saw are merged: without it no merge can tell who changed what,
  // and two configs created apart under one name are not two edits of one config.
  if (entry.base === undefined || entry.base === null) return null;
  const local = entry.op === 'save' ? (entry.config ?? null) : null;
  const server = remote.entry?.config ?? null;
  // The server answers configs with their links sanitized; so is the base when it came from a read.
  const base = sanitizeConfigLinks(entry.base);
  const { merged, conflicts } = threeWayMerge<LinkConfig>(base, local, server);
  if (conflicts.length > 0) return null;
  return {
    merged,
    appliedRemote: changedPaths(base, server),
    keptLocal: changedPaths(base, local),
  };
}
