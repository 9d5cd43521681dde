/**
 * How long a clock-dependent atom keeps selecting the same links (for caching answers, issue "one cache
 * policy"). Each bound is exclusive and errs on the early side: for every clock value `t` with
 * `now ≤ t < bound`, the atom selects exactly what it selects at `now`. The bounds come from the link
 * timestamps kept sorted by the engine cache, so each costs a binary search.
 */
import { startOfUtcDay } from '../protocols/time.js';
import type { TimeWindow } from '../protocols/time.js';

const DAY = 86_400_000;

/** Index of the first element of ascending `sorted` that passes `test` (false … true along the array). */
function firstPassing(
  sorted: Float64Array,
  test: (ts: number) => boolean,
): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (test(sorted[mid] ?? 0)) high = mid;
    else low = mid + 1;
  }
  return low;
}

/** `value`, or `now` when it is NaN (an infinite timestamp meeting an infinite window). */
function orNow(value: number, now: number): number {
  return Number.isNaN(value) ? now : value;
}

/**
 * A one-duration window (`now − ts ≤ ms`; also the search `age` option): dated links enter it only by
 * being created, never by the clock (future ones are in already), and each one leaves at `ts + ms`. So
 * the answer holds until the oldest matching link leaves.
 */
export function sinceValidUntil(
  ms: number,
  now: number,
  stamps: Float64Array,
): number {
  const first = firstPassing(stamps, (ts) => now - ts <= ms);
  const ts = stamps[first];
  return ts === undefined ? Infinity : orNow(ts + ms, now);
}

/**
 * A two-duration window (`now − far ≤ ts ≤ now − near`) slides forward: the oldest matching link leaves at
 * `ts + far`, and the first link still too recent enters at `ts + near`. The entering instant is exact
 * only in whole-number arithmetic; otherwise the bound falls back to `now` (not cacheable).
 */
function betweenValidUntil(
  window: { readonly near: number; readonly far: number },
  now: number,
  stamps: Float64Array,
): number {
  const { near, far } = window;
  const oldest = stamps[firstPassing(stamps, (ts) => now - far <= ts)];
  const leaves =
    oldest !== undefined && oldest <= now - near
      ? orNow(oldest + far, now)
      : Infinity;
  const next = stamps[firstPassing(stamps, (ts) => ts > now - near)];
  let enters = Infinity;
  if (next !== undefined) {
    const at = next + near;
    const exact =
      Number.isSafeInteger(next) &&
      Number.isSafeInteger(near) &&
      Number.isSafeInteger(at);
    enters = exact ? at : now;
  }
  return Math.min(leaves, enters);
}

/**
 * Whether a `:time:` window can select different links at a later clock value. Dates are fixed; a
 * two-duration window whose near bound is farther than its far bound is always empty (checked only where
 * the arithmetic is exact).
 */
export function dependsOnClock(window: NonNullable<TimeWindow>): boolean {
  switch (window.kind) {
    case 'today':
    case 'since':
      return true;
    case 'between':
      return !isEmptyBetween(window);
    case 'after':
    case 'dates':
      return false;
  }
}

/** Whether a two-duration window is reversed, so that it never matches anything. */
export function isEmptyBetween(window: {
  readonly near: number;
  readonly far: number;
}): boolean {
  return (
    Number.isSafeInteger(window.near) &&
    Number.isSafeInteger(window.far) &&
    window.far < window.near
  );
}

/** Until when (exclusive) a `:time:` window selects the same links, given the sorted `:time:` stamps. */
export function timeValidUntil(
  window: NonNullable<TimeWindow>,
  now: number,
  stamps: Float64Array,
): number {
  switch (window.kind) {
    case 'today':
      // The start of the day moves at the next UTC midnight; nothing else can change `ts ≥ start`.
      return startOfUtcDay(now) + DAY;
    case 'since':
      return sinceValidUntil(window.ms, now, stamps);
    case 'between':
      return isEmptyBetween(window)
        ? Infinity
        : betweenValidUntil(window, now, stamps);
    case 'after':
    case 'dates':
      return Infinity;
  }
}
