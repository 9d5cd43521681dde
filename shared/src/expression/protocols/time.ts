/**
 * The built-in `:time:` filter (docs/expression-reference.md §10.2, D5): windows by duration or date over the
 * link timestamp (`meta.timestamp`, else `createdAt`). A timestamp of 0 never matches.
 */

import { DURATION_UNITS } from '../../util/duration-units.js';

const DAY = DURATION_UNITS.d;
/** The language's durations: digits and one of the units `h`, `d`, `w` of the shared table (no months). */
const DURATION = /^[0-9]+[hdwHDW]$/;

/** A predicate on a link's non-zero timestamp, or `null` when the arguments select nothing. */
export type TimeFilter = ((ts: number) => boolean) | null;

/** A duration in ms (ASCII digits then `h`, `d` or `w` in either case); `null` when not one or zero. */
export function parseDuration(text: string): number | null {
  if (!DURATION.test(text)) return null;
  const unit =
    DURATION_UNITS[
      text.charAt(text.length - 1).toLowerCase() as 'h' | 'd' | 'w'
    ];
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
 * What the arguments of `:time:` ask for (docs/expression-reference.md §10.2), read once and shared by the
 * filter and by the analysis of what an expression depends on. `null` when they select nothing.
 */
export type TimeWindow =
  /** `today`: from 00:00 UTC of the current day on (D5). */
  | { readonly kind: 'today' }
  /** One duration: `now − ts ≤ ms` (future items always match). */
  | { readonly kind: 'since'; readonly ms: number }
  /** Two durations: `now − far ≤ ts ≤ now − near`. */
  | { readonly kind: 'between'; readonly near: number; readonly far: number }
  /** One date: `ts ≥ from`. */
  | { readonly kind: 'after'; readonly from: number }
  /** Two dates: `from ≤ ts ≤ to`. */
  | { readonly kind: 'dates'; readonly from: number; readonly to: number }
  | null;

/** Reads the arguments of `:time:` (docs/expression-reference.md §10.2). */
export function parseTimeArgs(args: readonly string[]): TimeWindow {
  if (args.length === 1) {
    const arg = args[0] ?? '';
    if (arg === 'today') return { kind: 'today' };
    const duration = parseDuration(arg);
    if (duration !== null) return { kind: 'since', ms: duration };
    const date = parseDate(arg);
    return date === null ? null : { kind: 'after', from: date };
  }
  if (args.length === 2) {
    const [first = '', second = ''] = args;
    const near = parseDuration(first);
    const far = parseDuration(second);
    if (near !== null && far !== null) return { kind: 'between', near, far };
    if (near !== null || far !== null) return null;
    const from = parseDate(first);
    const to = parseDate(second);
    if (from === null || to === null) return null;
    return { kind: 'dates', from, to };
  }
  return null;
}

/**
 * Compiles the arguments of `:time:` once per atom into a test on the link timestamp (the caller
 * excludes timestamp 0, which never matches).
 */
export function timeFilter(args: readonly string[], now: number): TimeFilter {
  const window = parseTimeArgs(args);
  if (window === null) return null;
  switch (window.kind) {
    case 'today': {
      const start = startOfUtcDay(now);
      return (ts) => ts >= start;
    }
    case 'since': {
      const { ms } = window;
      return (ts) => now - ts <= ms;
    }
    case 'between': {
      const { near, far } = window;
      return (ts) => now - far <= ts && ts <= now - near;
    }
    case 'after': {
      const { from } = window;
      return (ts) => ts >= from;
    }
    case 'dates': {
      const { from, to } = window;
      return (ts) => from <= ts && ts <= to;
    }
  }
}
