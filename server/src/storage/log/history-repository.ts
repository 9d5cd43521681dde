/**
 * The history part of the storage boundary (`config-repository.ts` re-exports it): the revisions of every
 * config, as each adapter keeps them, with their summaries.
 */
import type { Author, ChangeSummary, RevisionOp } from '@linkconfig/shared';
import type { HistoryKeep } from '../../config/history-keep.js';
import type { RevisionContent } from './revision-content.js';

/**
 * What a revision changed against the revision before it (links added, removed, changed), and how many
 * links it holds (0 for a delete): computed when the revision is written, kept with it, so a page of
 * history reads it instead of rebuilding and comparing revisions.
 */
export interface RevisionSummary extends ChangeSummary {
  readonly links: number;
}

/** A summary worked out against the stored version `over` (see `WriteOptions.summary`). */
export interface SummaryOver {
  readonly over: number | null;
  readonly summary: RevisionSummary;
}

/** A revision as every adapter stores it: its facts, and its content (`null` for a delete). */
export interface RevisionRecord {
  readonly meta: RevisionMeta;
  readonly content: RevisionContent | null;
  /**
   * What it changed, when known ({@link RevisionSummary}); absent or `null`: not summarized (a backup
   * carries none, nor a revision written before summaries were kept).
   */
  readonly summary?: RevisionSummary | null;
}

/** What a revision did: the write's `op` (`put` by default), or `delete` (`RevisionOpSchema` in shared). */
export type { RevisionOp };

/** The facts of one revision of a config (its content apart). */
export interface RevisionMeta {
  readonly name: string;
  /** Per config, from 1; only grows (also across a delete). */
  readonly rev: number;
  /** The change id of the write: the database-wide sequence the change feed and audit trail use. */
  readonly id: number;
  readonly op: RevisionOp;
  /** The write's `updatedAt` (ISO 8601 UTC with milliseconds). */
  readonly at: string;
  readonly by: Author | null;
  readonly requestId: string | null;
  /** The ETag the write gave the config (`null` for a delete). */
  readonly etag: string | null;
  /** Length of the stored JSON text in UTF-8 bytes (`null` for a delete). */
  readonly size: number | null;
}

/** A revision with its content: the JSON text as that write stored it (`null` for a delete). */
export interface StoredRevision {
  readonly meta: RevisionMeta;
  readonly json: string | null;
}

/**
 * The history of every config: one revision per committed write, appended by the write algorithm in the
 * write's transaction (`config-write.ts`). Backups read it whole with {@link revisions} and
 * {@link auditTrail}.
 */
export interface HistoryRepository {
  /** Up to `limit` revisions of `name` below `before` (default: all), newest first; `[]` if none. */
  history(
    name: string,
    page: { readonly limit: number; readonly before?: number | undefined },
  ): Promise<RevisionMeta[]>;
  /** The kept revisions `from`–`to` of `name` (inclusive), oldest first, with their content. */
  revisions(
    name: string,
    range: { readonly from: number; readonly to: number },
  ): Promise<StoredRevision[]>;
  /** Up to `limit` revisions of every config (or of `name`) with a change id above `afterId`, by id. */
  auditTrail(page: {
    readonly afterId: number;
    readonly limit: number;
    readonly name?: string | undefined;
  }): Promise<RevisionMeta[]>;
  /** Names whose newest revision is a delete (restorable), sorted by code point. */
  deletedNames(): Promise<string[]>;
  /**
   * The kept summaries of the revisions `from`–`to` of `name` (a revision without one is absent from
   * the map): one cheap read of small columns, however large the configs.
   */
  summaries(
    name: string,
    range: { readonly from: number; readonly to: number },
  ): Promise<Map<number, RevisionSummary>>;
  /**
   * Keeps summaries worked out later for revisions of `name` that have none (a revision that has one
   * keeps it; a pruned one is skipped). Not a write of a config: no change id, nothing in the log.
   */
  keepSummaries(
    name: string,
    entries: readonly {
      readonly rev: number;
      readonly summary: RevisionSummary;
    }[],
  ): Promise<void>;
  /**
   * Removes log entries older than `keep` allows as of `now` (ms), by one policy (`history-keep.ts`):
   * revisions, never a config's newest nor one a kept revision is rebuilt from, and the other entries
   * of the log ({@link ConfigRepository.appendEvent}); returns how many entries were removed.
   */
  pruneHistory(keep: HistoryKeep, now: number): Promise<number>;
}
