/**
 * The one grammar of durations in settings and commands (`EVENTS_HEARTBEAT`, `CHANGES_MAX_AGE`,
 * `HISTORY_KEEP`, `linkconfig keys --expires`): ASCII digits, optional spaces, then a unit of the shared
 * table (`ms`, `s`, `m`, `h`, `d`, `w`, in either case); without a unit, milliseconds.
 */
import { z } from 'zod';
import { DURATION_UNITS } from '@linkconfig/shared';
import type { DurationUnit } from '@linkconfig/shared';

/** The units, longest first so `ms` is never read as `m`. */
const UNIT_NAMES = Object.keys(DURATION_UNITS).sort(
  (a, b) => b.length - a.length,
);

const DURATION = new RegExp(
  `^\\s*(\\d+)\\s*(${UNIT_NAMES.join('|')})?\\s*$`,
  'i',
);

/** Examples for messages. */
export const DURATION_EXAMPLES = '15000, 15s, 10m, 24h, 7d or 2w';

/** The milliseconds `text` says, however many (`null`: not a duration). */
function millisecondsOf(text: string): number | null {
  const match = DURATION.exec(text);
  if (match === null) return null;
  const unit = (match[2] ?? 'ms').toLowerCase() as DurationUnit;
  return Number(match[1]) * DURATION_UNITS[unit];
}

const inRange = (ms: number): boolean =>
  ms >= 1 && ms <= Number.MAX_SAFE_INTEGER;

/** A duration in ms, at least 1; `null` when `text` is not one. */
export function parseDuration(text: string): number | null {
  const ms = millisecondsOf(text);
  return ms !== null && inRange(ms) ? ms : null;
}

/** A duration in ms (at least 1 ms), as a setting. */
export const DurationSchema = z.string().transform((text, ctx) => {
  const ms = millisecondsOf(text);
  if (ms === null || !inRange(ms)) {
    ctx.addIssue({
      code: 'custom',
      message:
        ms === null
          ? `must be a duration such as ${DURATION_EXAMPLES}`
          : ms < 1
            ? 'must be at least 1 ms'
            : 'is too long',
    });
    return z.NEVER;
  }
  return ms;
});
