/**
 * How much history a server keeps (`HISTORY_KEEP`): everything (the default), revisions younger than a
 * duration, or the newest N revisions of each config. Pruning never removes a config's newest revision,
 * and never a revision that a kept one is rebuilt from (`revision-content.ts`): it cuts at the keyframe
 * of the oldest kept revision's chain, so a little more than asked may stay until the next keyframe.
 */

import { parseDuration } from '../../config/duration.js';

/** What to keep of each config's history. */
export type HistoryKeep =
  | { readonly kind: 'all' }
  | { readonly kind: 'count'; readonly count: number }
  | { readonly kind: 'age'; readonly ms: number };

/**
 * Parses `all`, a count (`50`), or an age: a duration of the settings' grammar with its unit (`365d`,
 * `12w`, `48h`, `30m`; `config/duration.ts`); `null` when it is none of them. Bare digits are a count,
 * never milliseconds.
 */
export function parseHistoryKeep(text: string): HistoryKeep | null {
  const value = text.trim().toLowerCase();
  if (value === 'all') return { kind: 'all' };
  if (/^\d+$/.test(value)) {
    const count = Number(value);
    return count >= 1 && value.length <= 9 ? { kind: 'count', count } : null;
  }
  const ms = parseDuration(value);
  return ms === null ? null : { kind: 'age', ms };
}

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
}

/** Prunes every config's history to `keep` as of `now` (ms); returns the number of revisions removed. */
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
  return removed;
}
