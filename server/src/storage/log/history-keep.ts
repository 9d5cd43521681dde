/**
 * Pruning the log to the `HISTORY_KEEP` setting (`config/history-keep.ts`), one policy for all of it.
 * Revisions: pruning never removes a config's newest revision, and never a revision that a kept one is
 * rebuilt from (`revision-content.ts`): it cuts at the keyframe of the oldest kept revision's chain, so a
 * little more than asked may stay until the next keyframe. The other entries of the log (publishes, link
 * events: `appendEvent`) hold no state a reader needs, so they go as asked: with a count, each config
 * keeps its newest that many; with an age, those younger than it.
 */
import type { HistoryKeep } from '../../config/history-keep.js';

/** What pruning reads and removes, per adapter. */
export interface PruneSteps {
  /** Every name with history, with its newest revision. */
  names(): Promise<readonly { name: string; newest: number }[]>;
  /** The oldest revision of `name` written at or after `atMs`, or `null`. */
  firstSince(name: string, atMs: number): Promise<number | null>;
  /** The keyframe of the first revision with content at or after `rev`, or `null`. */
  chainBaseFrom(name: string, rev: number): Promise<number | null>;
  /** Removes the revisions of `name` below `rev`; returns how many. */
  deleteBelow(name: string, rev: number): Promise<number>;
  /** Removes every other entry of the log but each config's newest `count`; returns how many. */
  deleteEventsBeyond(count: number): Promise<number>;
  /** Removes the other entries of the log appended before `atMs`; returns how many. */
  deleteEventsBefore(atMs: number): Promise<number>;
}

/** Prunes the log to `keep` as of `now` (ms); returns the number of entries removed (revisions and others). */
export async function pruneHistory(
  steps: PruneSteps,
  keep: HistoryKeep,
  now: number,
): Promise<number> {
  if (keep.kind === 'all') return 0;
  let removed = 0;
  for (const { name, newest } of await steps.names()) {
    const wanted =
      keep.kind === 'count'
        ? newest - keep.count + 1
        : ((await steps.firstSince(name, now - keep.ms)) ?? newest);
    const keepFrom = Math.min(newest, wanted);
    if (keepFrom <= 1) continue;
    const base = (await steps.chainBaseFrom(name, keepFrom)) ?? keepFrom;
    const cut = Math.min(keepFrom, base);
    if (cut > 1) removed += await steps.deleteBelow(name, cut);
  }
  removed +=
    keep.kind === 'count'
      ? await steps.deleteEventsBeyond(keep.count)
      : await steps.deleteEventsBefore(now - keep.ms);
  return removed;
}
