/**
 * Command-line flags of `http.bench.ts` (documented in its header), parsed with `node:util` parseArgs.
 */
import { parseArgs } from 'node:util';
import { parseReference, withPids } from './reference-server.js';
import type { ReferenceSpec } from './reference-server.js';

/**
 * One `--scale` point: `configs` configs; the configs the requests name keep the run's links per config,
 * the others have `links` (null: the run's too). Written `200` or `10000x50`.
 */
export interface ScalePoint {
  configs: number;
  links: number | null;
}

/** Parsed flags. */
export interface BenchOptions {
  configs: number;
  links: number;
  duration: number;
  rounds: number;
  warmup: number;
  connections: number;
  /** The smoke-test settings: short rounds, small soak. */
  quick: boolean;
  /** Whether the main table is measured (`--no-main` runs only the other phases asked for). */
  main: boolean;
  scale: boolean;
  /** The scale points, in order. */
  scalePoints: ScalePoint[];
  soak: boolean;
  /** Inline-config `/query` requests of the soak. */
  soakQueries: number;
  /** Searches of the soak. */
  soakSearches: number;
  /** Size of each inline config of the soak, bytes. */
  soakBytes: number;
  /** `CACHE_BYTES` given to our server in the soak, bytes. */
  cacheBytes: number;
  features: boolean;
  /** The published-reads phase (published.ts). */
  published: boolean;
  /** The event-loop latency phase (latency.ts). */
  latency: boolean;
  /** Size of each large config of the latency phase, bytes. */
  latencyBytes: number;
  /** Large-config rounds per stream of the latency phase. */
  latencyRounds: number;
  /** A second server entry the latency phase measures too (e.g. an earlier build), or null. */
  latencyVersus: string | null;
  json: string | null;
  /** Scenario ids to run (all when empty). */
  only: string[];
  ceiling: boolean;
  /** Servers of the contract to measure beside ours (`--reference name=url[@pid]`, repeatable). */
  references: ReferenceSpec[];
  /**
   * Whether the in-repo baseline runs: by default only when no reference is given (a fallback, labelled
   * as what it is); `--baseline` adds it beside references, `--no-baseline` drops it.
   */
  baseline: boolean;
  hot: boolean;
  /** Answers captured per scenario before measuring (compared with the baseline, replayed by the ceiling). */
  captures: number;
  /** Directory for `--cpu-prof` of our server, or null. */
  profile: string | null;
  seed: number | undefined;
  /** The server entry to start instead of server/dist/main.js, or null. */
  server: string | null;
  /** `WORKERS` of our server (1: one process, as by default). */
  workers: number;
  /** The cold-start phase (cold-start.ts), its configs and links per config. */
  cold: boolean;
  coldConfigs: number;
  coldLinks: number;
  /** A SQLite file the cold phase keeps its loaded database in, and reuses when it exists; or null. */
  coldDb: string | null;
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

const positive = (flag: string, raw: string | undefined, fallback: number) =>
  numberFlag(flag, raw, { fallback });
const count = (flag: string, raw: string | undefined, fallback: number) =>
  Math.round(positive(flag, raw, fallback));

/**
 * A size such as `1000000`, `512kb`, `1mb` or `128MiB` in bytes (k, m, g are powers of 1024).
 *
 * @example
 * byteSize('cache-bytes', '128mb', 0); // 134217728
 */
export function byteSize(
  flag: string,
  raw: string | undefined,
  fallback: number,
): number {
  if (raw === undefined) return fallback;
  const match = /^(\d+(?:\.\d+)?)\s*([kmg]?)(?:i?b)?$/i.exec(raw.trim());
  if (match === null) {
    throw new Error(`--${flag} must be a size such as 1000000, 512kb or 1mb`);
  }
  const unit = (match[2] ?? '').toLowerCase();
  const factor =
    unit === 'g'
      ? 1024 ** 3
      : unit === 'm'
        ? 1024 ** 2
        : unit === 'k'
          ? 1024
          : 1;
  return Math.floor(Number(match[1]) * factor);
}

/** The scale points by default: 10, 50 and 200 configs of the run's links, and 10,000 of 50 links. */
const DEFAULT_SCALE_POINTS = '10,50,200,10000x50';

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
      quick: { type: 'boolean', default: false },
      'no-main': { type: 'boolean', default: false },
      scale: { type: 'boolean', default: false },
      'scale-points': { type: 'string' },
      soak: { type: 'boolean', default: false },
      'soak-queries': { type: 'string' },
      'soak-searches': { type: 'string' },
      'soak-bytes': { type: 'string' },
      'cache-bytes': { type: 'string' },
      features: { type: 'boolean', default: false },
      published: { type: 'boolean', default: false },
      latency: { type: 'boolean', default: false },
      'latency-bytes': { type: 'string' },
      'latency-rounds': { type: 'string' },
      'latency-versus': { type: 'string' },
      json: { type: 'string' },
      only: { type: 'string' },
      'no-ceiling': { type: 'boolean', default: false },
      'no-baseline': { type: 'boolean', default: false },
      baseline: { type: 'boolean', default: false },
      reference: { type: 'string', multiple: true },
      'reference-pid': { type: 'string', multiple: true },
      'no-hot': { type: 'boolean', default: false },
      captures: { type: 'string' },
      profile: { type: 'string' },
      seed: { type: 'string' },
      server: { type: 'string' },
      workers: { type: 'string' },
      cold: { type: 'boolean', default: false },
      'cold-configs': { type: 'string' },
      'cold-links': { type: 'string' },
      'cold-db': { type: 'string' },
    },
  });
  const quick = values.quick;
  const references = withPids(
    (values.reference ?? []).map(parseReference),
    values['reference-pid'] ?? [],
  );
  const names = references.map((r) => r.name);
  if (new Set(names).size !== names.length) {
    throw new Error(`--reference names must differ, got ${names.join(', ')}`);
  }
  const duration = positive('duration', values.duration, quick ? 1 : 3);
  const scalePoints = (values['scale-points'] ?? DEFAULT_SCALE_POINTS)
    .split(',')
    .map((s): ScalePoint => {
      const [configs, links] = s.trim().split('x');
      return {
        configs: count('scale-points', configs, 1),
        links: links === undefined ? null : count('scale-points', links, 1),
      };
    });
  return {
    configs: count('configs', values.configs, 50),
    links: count('links', values.links, 500),
    duration,
    rounds: count('rounds', values.rounds, quick ? 1 : 3),
    warmup: numberFlag('warmup', values.warmup, {
      fallback: Math.min(1, duration),
      allowZero: true,
    }),
    connections: count('connections', values.connections, 16),
    quick,
    main: !values['no-main'],
    scale: values.scale,
    scalePoints,
    soak: values.soak,
    soakQueries: count(
      'soak-queries',
      values['soak-queries'],
      quick ? 200 : 5000,
    ),
    soakSearches: count(
      'soak-searches',
      values['soak-searches'],
      quick ? 2000 : 20_000,
    ),
    soakBytes: byteSize('soak-bytes', values['soak-bytes'], 1_000_000),
    cacheBytes: byteSize('cache-bytes', values['cache-bytes'], 128 * 1024 ** 2),
    features: values.features,
    published: values.published,
    latency: values.latency,
    latencyBytes: byteSize(
      'latency-bytes',
      values['latency-bytes'],
      quick ? 2 * 1024 ** 2 : 9 * 1024 ** 2,
    ),
    latencyRounds: count(
      'latency-rounds',
      values['latency-rounds'],
      quick ? 2 : 4,
    ),
    latencyVersus: values['latency-versus'] ?? null,
    json: values.json ?? null,
    only: (values.only ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== ''),
    ceiling: !values['no-ceiling'],
    references,
    baseline:
      values.baseline || (references.length === 0 && !values['no-baseline']),
    hot: !values['no-hot'],
    captures: count('captures', values.captures, quick ? 4 : 16),
    profile: values.profile ?? null,
    seed: values.seed === undefined ? undefined : count('seed', values.seed, 1),
    server: values.server ?? null,
    workers: count('workers', values.workers, 1),
    cold: values.cold,
    coldConfigs: count('cold-configs', values['cold-configs'], 5000),
    coldLinks: count('cold-links', values['cold-links'], 50),
    coldDb: values['cold-db'] ?? null,
  };
}
