/**
 * The history step of the one write algorithm (`config-write.ts`): every committed write appends one
 * revision of its name, in the same transaction as the row and the change. Its number is the name's
 * newest revision plus one (so it keeps growing across a delete); its content is a delta against the
 * revision before when that one holds what is stored now, else a keyframe (`revision-content.ts`).
 */
import type { Author } from '@linkconfig/shared';
import type {
  RevisionMeta,
  RevisionOp,
  RevisionRecord,
  RevisionSummary,
  WriteOptions,
} from '../config-repository.js';
import { encodeRevision } from './revision-content.js';
import type { PreviousContent } from './revision-content.js';

export type { RevisionRecord } from '../config-repository.js';

/** The newest revision of a name, as a write needs it. */
export interface HistoryTip {
  readonly rev: number;
  /** Its change id (for a content revision: the version it stored). */
  readonly id: number;
  readonly op: RevisionOp;
  /** Keyframe of its chain, and delta bytes since (`null`/0 for a delete). */
  readonly base: number | null;
  readonly chain: number;
  /** Links it holds, from its summary (`null`: not summarized). */
  readonly links: number | null;
}

/** The history steps of a write transaction (see `WriteTransaction`). */
export interface HistorySteps {
  /** The newest revision of `name`, or `null` when it has none. */
  readHistoryTip(name: string): HistoryTip | null;
  /** The JSON text of the stored row of `name` (which exists). */
  readCurrentJson(name: string): string;
  /** Appends a revision. */
  appendRevision(record: RevisionRecord): void;
  /** `false`: nothing is recorded, so no content is encoded (the benchmark's write without history). */
  readonly recording?: false;
}

/** The stored `by` of a revision: the author as JSON text, `null` when nobody is known. */
export const authorText = (author: Author | null | undefined): string | null =>
  author === null || author === undefined ? null : JSON.stringify(author);

/** Reads a stored `by` back. */
export function authorOf(text: string | null): Author | null {
  if (text === null) return null;
  const value = JSON.parse(text) as Author;
  return { id: value.id, label: value.label };
}

/** What a write reads of the history before it changes the row (see {@link readHistoryBefore}). */
export interface HistoryBefore {
  readonly tip: HistoryTip | null;
  /** What a delta is made against: the revision before, when it holds exactly the stored row. */
  readonly deltaBase: PreviousContent | null;
}

/**
 * Reads, before the row changes, the newest revision of `name` and what a delta can be made against: the
 * stored row's text when that revision was written by this algorithm (its change id is the row's
 * version) and is not a delete. `stored.version`: the row's version, `null` when the name does not exist.
 * `stored.held`: the text of a version the caller holds (`WriteOptions.heldText`), used instead of reading the
 * stored text when its version is exactly the stored one.
 */
export function readHistoryBefore(
  steps: HistorySteps,
  name: string,
  stored: {
    readonly version: number | null;
    readonly held?: WriteOptions['heldText'];
  },
): HistoryBefore {
  const { version: storedVersion, held } = stored;
  const tip = steps.readHistoryTip(name);
  if (
    steps.recording === false ||
    tip === null ||
    tip.base === null ||
    tip.op === 'delete' ||
    storedVersion === null ||
    tip.id !== storedVersion
  ) {
    return { tip, deltaBase: null };
  }
  const json =
    held !== undefined && held.version === storedVersion
      ? held.json
      : steps.readCurrentJson(name);
  return {
    tip,
    deltaBase: { rev: tip.rev, json, base: tip.base, chain: tip.chain },
  };
}

/** What the algorithm knows of the write when it appends the revision. */
export interface WriteFacts {
  readonly name: string;
  /** The change id (and, for a put, the version stored). */
  readonly id: number;
  readonly updatedAt: string;
  readonly options: WriteOptions;
  /**
   * What the write stored and its ETag; `null` for a delete. `bytes`: the text's size in UTF-8 bytes
   * when the backend gave it (`WriteTransaction.writeRow`), else counted here.
   */
  readonly stored: {
    readonly json: string;
    readonly etag: string;
    readonly bytes?: number | undefined;
  } | null;
  /** The version the write replaced (`null`: none was stored). */
  readonly over: number | null;
}

/**
 * The summary a revision is written with: a delete's from the links of the revision it follows; a
 * write's from `options.summary` when that was worked out against exactly the version it replaced;
 * else `null` (history fills it in later).
 */
export function summaryOfWrite(
  before: HistoryBefore,
  facts: Pick<WriteFacts, 'options' | 'stored' | 'over'>,
): RevisionSummary | null {
  if (facts.stored === null) {
    const links = before.tip?.op === 'delete' ? 0 : before.tip?.links;
    return links === null || links === undefined
      ? null
      : { added: 0, removed: links, changed: 0, links: 0 };
  }
  const given = facts.options.summary;
  return given !== undefined && given.over === facts.over
    ? given.summary
    : null;
}

/** Appends the revision of a write; returns its number. */
export function appendRevision(
  steps: HistorySteps,
  before: HistoryBefore,
  facts: WriteFacts,
): number {
  const { name, id, updatedAt, options, stored } = facts;
  const rev = (before.tip?.rev ?? 0) + 1;
  if (steps.recording === false) return rev;
  const meta: RevisionMeta = {
    name,
    rev,
    id,
    op: stored === null ? 'delete' : (options.op ?? 'put'),
    at: updatedAt,
    by: options.author ?? null,
    requestId: options.requestId ?? null,
    etag: stored?.etag ?? null,
    size:
      stored === null
        ? null
        : (stored.bytes ?? Buffer.byteLength(stored.json, 'utf8')),
  };
  steps.appendRevision({
    meta,
    content:
      stored === null
        ? null
        : encodeRevision(
            rev,
            stored.json,
            before.deltaBase && { ...before.deltaBase, cut: options.cut },
          ),
    summary: summaryOfWrite(before, facts),
  });
  return rev;
}
