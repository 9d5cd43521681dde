/**
 * The built-in `:time:` filter (expression doc §10.2, D5): windows by duration or date over the link
 * timestamp (`meta.timestamp`, else `createdAt`). A timestamp of 0 never matches.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const UNITS: Readonly<Record<string, number>> = { h: HOUR, d: DAY, w: 7 * DAY };
const DURATION = /^[0-9]+[hdwHDW]$/;

/** A predicate on a link's non-zero timestamp, or `null` when the arguments select nothing. */
export type TimeFilter = ((ts: number) => boolean) | null;

/** A duration in ms (ASCII digits then `h`, `d` or `w` in either case); `null` when not one or zero. */
export function parseDuration(text: string): number | null {
  if (!DURATION.test(text)) return null;
  const unit = UNITS[text.charAt(text.length - 1).toLowerCase()] ?? 0;
  const ms = Number(text.slice(0, -1)) * unit;
  return ms > 0 ? ms : null;
}

/** A date through JavaScript's `Date` parser; `null` when invalid. */
function parseDate(text: string): number | null {
  const time = new Date(text).getTime();
  return Number.isNaN(time) ? null : time;
}

/** 00:00 UTC of the UTC day containing `now` (D5). */
export function startOfUtcDay(now: number): number {
  return Math.floor(now / DAY) * DAY;
}

/**
 * Compiles the arguments of `:time:` once per atom into a test on the link timestamp (the caller
 * excludes timestamp 0, which never matches).
 */
export function timeFilter(args: readonly string[], now: number): TimeFilter {
  if (args.length === 1) {
    const arg = args[0] ?? '';
    if (arg === 'today') {
      const start = startOfUtcDay(now);
      return (ts) => ts >= start;
    }
    const duration = parseDuration(arg);
    if (duration !== null) return (ts) => now - ts <= duration;
    const date = parseDate(arg);
    if (date !== null) return (ts) => ts >= date;
    return null;
  }
  if (args.length === 2) {
    const [first = '', second = ''] = args;
    const near = parseDuration(first);
    const far = parseDuration(second);
    if (near !== null && far !== null) {
      return (ts) => now - far <= ts && ts <= now - near;
    }
    if (near !== null || far !== null) return null;
    const from = parseDate(first);
    const to = parseDate(second);
    if (from === null || to === null) return null;
    return (ts) => from <= ts && ts <= to;
  }
  return null;
}
