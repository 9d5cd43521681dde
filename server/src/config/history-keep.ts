/**
 * How much history a server keeps (`HISTORY_KEEP`): everything (the default), revisions younger than a
 * duration, or the newest N revisions of each config. Storage prunes to it
 * (`storage/log/history-keep.ts`).
 */
import { parseDuration } from './duration.js';

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
