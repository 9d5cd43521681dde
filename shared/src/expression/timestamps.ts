/**
 * Link timestamps: search `age`/`sort` read `createdAt` only (docs/expression-reference.md §8.3); `:time:`
 * prefers `meta.timestamp` (docs/expression-reference.md §10.2). Missing or invalid gives 0, which never
 * matches a time filter.
 */
import type { PreparedLink } from './types.js';

/** `value` through JavaScript's `Date` constructor; 0 when invalid or when conversion throws. */
function dateValue(value: unknown): number {
  try {
    const time = new Date(value as string | number).getTime();
    return Number.isNaN(time) ? 0 : time;
  } catch {
    return 0;
  }
}

/** The timestamp of `createdAt`: a number as is, any other value through `Date`, missing gives 0. */
export function createdAtTimestamp(link: PreparedLink): number {
  const value = link.createdAt;
  if (value === undefined || value === null) return 0;
  if (typeof value === 'number') return value;
  return dateValue(value);
}

/** The timestamp `:time:` uses: a numeric or date-string `meta.timestamp`, else `createdAt`. */
export function timeProtocolTimestamp(link: PreparedLink): number {
  const meta = link.meta;
  if (meta !== undefined && Object.hasOwn(meta, 'timestamp')) {
    const stamp = meta['timestamp'];
    if (typeof stamp === 'number') return stamp;
    if (typeof stamp === 'string') {
      const parsed = new Date(stamp).getTime();
      if (!Number.isNaN(parsed)) return parsed;
    }
  }
  return createdAtTimestamp(link);
}
