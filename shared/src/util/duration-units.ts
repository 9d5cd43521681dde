/**
 * Milliseconds per duration unit: the one table every duration of the service is read with. The server's
 * settings, `HISTORY_KEEP` and `linkconfig keys --expires` take every unit
 * (`server/src/config/duration.ts`); the expression language's `:time:` takes `h`, `d` and `w` only
 * (docs/expression-reference.md §10.2), where an `m` could be taken for months.
 */
export const DURATION_UNITS = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
} as const;

/** A unit of {@link DURATION_UNITS}. */
export type DurationUnit = keyof typeof DURATION_UNITS;
