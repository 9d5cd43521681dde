/**
 * The records of a hybrid store's durable sync state, as stored in the browser database (the object
 * stores `outbox`, `dead-letters`, `versions`, `conflicts` and `drafts` of `indexeddb/config-db.ts`). Their shape
 * is stored data: change it only with an upgrade there.
 */
import type { ConfigEntry, LinkConfig } from '@linkconfig/shared';

/** A pending remote operation for one config name: the latest save, or a tombstone. */
export interface OutboxEntry {
  name: string;
  op: 'save' | 'remove';
  /** The config to PUT (saves only). */
  config?: LinkConfig;
  /** Unique per queued write: a delivery may delete the entry only if it still carries this token. */
  token: string;
  /** When the write was queued (ISO 8601); the drain order. */
  queuedAt: string;
  /**
   * The server version this write replaces: an ETag (sent as `If-Match`), `null` when the server should
   * not have the name (`If-None-Match: *`), absent when unknown (sent without a precondition).
   */
  baseEtag?: string | null;
  /**
   * The server's config at `baseEtag` (`null`: none), when known: the base of a three-way merge if the
   * write meets a newer version, and what a `PATCH` of the difference is computed against.
   */
  base?: LinkConfig | null;
}

/** A write the server refused for good (a 4xx other than 401/408/412/429; a 403 too: the key may not write that name), kept for the app to handle. */
export interface DeadLetter extends OutboxEntry {
  status: number;
  error: string;
  failedAt: string;
}

/** What this browser knows about the server's version of one name. */
export interface VersionRecord {
  name: string;
  /**
   * The server version the local copy is, or was last based on: an ETag; `null` when the server has no
   * such config; absent when unknown (data from before versions were kept, or a server without ETags).
   */
  etag?: string | null;
  /** `meta.updatedAt` of that server version, while the local copy is exactly that version. */
  serverUpdatedAt?: string;
  /** The server's config at `etag` (`null`: none), when known: the base of the next local edit. */
  base?: LinkConfig | null;
  /** Counts changes to the local copy; a refresh that started before a change must not undo it. */
  rev: number;
}

/** A local write the server refused because it holds another version (412), waiting for a decision. */
export interface ConflictRecord {
  name: string;
  /** The local side: the config, or `null` for a remove. */
  local: LinkConfig | null;
  /** The server side when the conflict was found, or `null` when the server has no such config. */
  remote: ConfigEntry | null;
  /** The server's ETag then; a resolution is sent against it. `null` when it has no such config. */
  remoteEtag: string | null;
  /** The server version the local side was based on, when known (the base of the three-way merge). */
  base?: LinkConfig | null;
  detectedAt: string;
}

/**
 * Unsaved edits of one config, kept in the browser so that they survive a reload: the draft and the
 * version it started from (the base of the three-way merge when a newer version arrives).
 */
export interface DraftRecord {
  name: string;
  draft: LinkConfig;
  /** The version the draft started from; `null` for a config this browser did not hold. */
  base: LinkConfig | null;
  /** When it was last kept (ISO 8601). */
  keptAt: string;
}
