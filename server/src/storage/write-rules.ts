/**
 * The rules every adapter applies inside its write transaction, in one place so memory, SQLite and
 * PostgreSQL cannot drift apart: preconditions, timestamps, and the bounds of the change history.
 */
import type {
  Change,
  ChangesPage,
  HistoryLimits,
  RestoreRows,
  WriteConditions,
} from './config-repository.js';
import { etagOf, matchesStrongly, matchesWeakly } from './etag.js';
import type { VersionStamp } from './etag.js';

/** Defaults of {@link HistoryLimits}. */
export const DEFAULT_HISTORY = {
  maxCount: 10_000,
  maxAgeMs: 7 * 24 * 60 * 60 * 1000,
} as const;

/** History limits with the defaults filled in. */
export function historyLimits(
  limits: HistoryLimits | undefined,
): Required<HistoryLimits> {
  return {
    maxCount: Math.max(1, limits?.maxCount ?? DEFAULT_HISTORY.maxCount),
    maxAgeMs: Math.max(1, limits?.maxAgeMs ?? DEFAULT_HISTORY.maxAgeMs),
  };
}

/** How often at most an adapter scans the history for changes older than `maxAgeMs`. */
export const AGE_PRUNE_INTERVAL_MS = 1000;

/**
 * When a connection scans its history for changes older than the age limit: the returned function says,
 * for a write recorded at `at` (write-clock ms), whether to scan now. At most once per
 * {@link AGE_PRUNE_INTERVAL_MS}, and again at once when the clock stepped back.
 */
export function ageScanSchedule(): (at: number) => boolean {
  let last = -Infinity;
  return (at) => {
    if (at - last < AGE_PRUNE_INTERVAL_MS && at >= last) return false;
    last = at;
    return true;
  };
}

/**
 * The answer to "changes after `afterId`" given the latest revision (`head`) and the highest pruned id:
 * a reset when changes after `afterId` are no longer all kept or `afterId` was never given out, else the
 * page `read` returns (called only then).
 */
export function changesPage(
  afterId: number,
  {
    head,
    prunedThrough,
  }: { readonly head: number; readonly prunedThrough: number },
  read: () => readonly Change[],
): ChangesPage {
  if (afterId < prunedThrough || afterId > head) return { reset: true, head };
  return { reset: false, head, changes: read() };
}

/**
 * Whether a write may go ahead given what is stored (`null`: the name does not exist). RFC 9110 order:
 * `If-Match` first, then `If-None-Match`.
 */
export function preconditionsHold(
  current: VersionStamp | null,
  conditions: WriteConditions,
): boolean {
  const etag = current === null ? null : etagOf(current);
  const { ifMatch, ifNoneMatch } = conditions;
  if (ifMatch !== undefined) {
    if (etag === null || !matchesStrongly(ifMatch, etag)) return false;
  }
  if (ifNoneMatch !== undefined && etag !== null) {
    if (matchesWeakly(ifNoneMatch, etag)) return false;
  }
  return true;
}

/**
 * The `updatedAt` of a write: the clock, but never below the stored `createdAt` or `updatedAt` (clocks
 * of several instances differ, and a clock can step back), so `createdAt ≤ updatedAt` always holds and
 * `updatedAt` never decreases for a name.
 */
export function nextUpdatedAt(
  now: Date,
  stored: { readonly createdAt: string; readonly updatedAt: string } | null,
): string {
  let time = now.getTime();
  if (stored !== null) {
    for (const text of [stored.createdAt, stored.updatedAt]) {
      const previous = Date.parse(text);
      // Unparseable legacy values are ignored rather than trusted.
      if (previous > time) time = previous;
    }
  }
  return new Date(time).toISOString();
}

/** The system clock, the default of `WriteOptions.now`. */
export const systemClock = (): Date => new Date();

/**
 * The highest change id among restored rows (configs' versions, revisions' ids): the revision counter is
 * raised to it, so the next write takes a later id than anything restored.
 */
export function highestId(rows: RestoreRows): number {
  let max = 0;
  for (const c of rows.configs) max = Math.max(max, c.version);
  for (const r of rows.revisions) max = Math.max(max, r.meta.id);
  return max;
}
