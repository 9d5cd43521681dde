/**
 * The rules every adapter applies inside its write transaction, in one place so memory, SQLite and
 * PostgreSQL cannot drift apart: preconditions, timestamps, and the log's horizon.
 */
import type {
  Change,
  ChangesPage,
  LogEvent,
  RestoreRows,
  RevisionMeta,
  WriteConditions,
} from './config-repository.js';
import { etagOf, matchesStrongly, matchesWeakly } from './etag.js';
import type { VersionStamp } from './etag.js';

/**
 * The answer to "the log after `afterId`" given the latest revision (`head`) and the log's horizon: a
 * reset when `afterId` lies before the horizon (the log before it was replaced) or was never given out,
 * else the page `read` returns (called only then).
 */
export function changesPage(
  afterId: number,
  { head, horizon }: { readonly head: number; readonly horizon: number },
  read: () => readonly (Change | LogEvent)[],
): ChangesPage {
  if (afterId < horizon || afterId > head) return { reset: true, head };
  const entries = read();
  return {
    reset: false,
    head,
    changes: entries.filter((e): e is Change => !('type' in e)),
    events: entries.filter((e): e is LogEvent => 'type' in e),
    through: entries.at(-1)?.id ?? afterId,
  };
}

/** A stored event's `detail` column read back (JSON text, `null` when none). */
export const detailOf = (text: string | null): unknown =>
  text === null ? null : (JSON.parse(text) as unknown);

/** A revision as the feed sends it: a put, patch or restore is a `put`; its ETag and time are the write's. */
export function changeOfRevision(meta: RevisionMeta): Change {
  return {
    id: meta.id,
    name: meta.name,
    op: meta.op === 'delete' ? 'delete' : 'put',
    etag: meta.etag,
    updatedAt: meta.at,
  };
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
