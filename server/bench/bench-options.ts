/**
 * Command-line flags of `http.bench.ts` (documented in its header), parsed with `node:util` parseArgs.
 */
import { parseArgs } from 'node:util';

/** Parsed flags. */
export interface BenchOptions {
  configs: number;
  links: number;
  duration: number;
  rounds: number;
  warmup: number;
  connections: number;
  scale: boolean;
  /** Config counts of the scale points. */
  scalePoints: number[];
  json: string | null;
  /** Scenario ids to run (all when empty). */
  only: string[];
  ceiling: boolean;
  /** Directory for `--cpu-prof` of the server child, or null. */
  profile: string | null;
  seed: number | undefined;
  /** The server entry to start instead of server/dist/main.js, or null. */
  server: string | null;
}

/** A numeric flag: the fallback when absent, else a finite number above 0 (or ≥ 0 with `allowZero`). */
function numberFlag(
  flag: string,
  raw: string | undefined,
  rule: { fallback: number; allowZero?: boolean },
): number {
  if (raw === undefined) return rule.fallback;
  const n = Number(raw);
  const ok = Number.isFinite(n) && (rule.allowZero === true ? n >= 0 : n > 0);
  if (!ok) {
    const wanted =
      rule.allowZero === true ? 'a number ≥ 0' : 'a positive number';
    throw new Error(`--${flag} must be ${wanted}, got "${raw}"`);
  }
  return n;
}

const positiveNumber = (
  flag: string,
  raw: string | undefined,
  fallback: number,
): number => numberFlag(flag, raw, { fallback });
const nonNegative = (
  flag: string,
  raw: string | undefined,
  fallback: number,
): number => numberFlag(flag, raw, { fallback, allowZero: true });

/** Parses `argv` (without `node` and the script). Throws with a readable message on a bad flag. */
export function parseBenchOptions(argv: string[]): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      configs: { type: 'string' },
      links: { type: 'string' },
      duration: { type: 'string' },
      rounds: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      scale: { type: 'boolean', default: false },
      'scale-points': { type: 'string' },
      json: { type: 'string' },
      only: { type: 'string' },
      'no-ceiling': { type: 'boolean', default: false },
      profile: { type: 'string' },
      seed: { type: 'string' },
      server: { type: 'string' },
    },
  });
  const duration = positiveNumber('duration', values.duration, 8);
  const scalePoints = (values['scale-points'] ?? '10,50,200')
    .split(',')
    .map((s) => Math.round(positiveNumber('scale-points', s.trim(), 1)));
  return {
    configs: Math.round(positiveNumber('configs', values.configs, 50)),
    links: Math.round(positiveNumber('links', values.links, 500)),
    duration,
    rounds: Math.round(positiveNumber('rounds', values.rounds, 3)),
    warmup: nonNegative('warmup', values.warmup, Math.min(2, duration)),
    connections: Math.round(
      positiveNumber('connections', values.connections, 16),
    ),
    scale: values.scale,
    scalePoints,
    json: values.json ?? null,
    only: (values.only ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== ''),
    ceiling: !values['no-ceiling'],
    profile: values.profile ?? null,
    seed:
      values.seed === undefined
        ? undefined
        : Math.round(positiveNumber('seed', values.seed, 1)),
    server: values.server ?? null,
  };
}
