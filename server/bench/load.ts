/**
 * Drives one scenario with autocannon: a short warm-up, then `rounds` rounds of `duration` seconds; the
 * round with the median req/s is the scenario's result (its p99 goes with it).
 */
import autocannon from 'autocannon';
import type { Options, Result } from 'autocannon';

/** How hard and how long to push. */
export interface LoadSettings {
  connections: number;
  /** Seconds per round. */
  duration: number;
  rounds: number;
  /** Seconds of warm-up before the rounds (not recorded). */
  warmup: number;
}

/** One request to repeat. */
export interface LoadRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** One round's figures. */
export interface RoundResult {
  /** Mean of the per-second request counts. */
  rps: number;
  /** Latency percentiles, ms. */
  p50: number;
  p99: number;
  /** Requests that failed: connection errors, timeouts and non-2xx answers. */
  failures: number;
  /** Responses per status code. */
  statusCodes: Record<string, number>;
}

/** A scenario's result: the median round, plus every round for the record. */
export interface LoadResult extends RoundResult {
  rounds: RoundResult[];
}

function run(options: Options): Promise<Result> {
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => {
      if (error) reject(error);
      else resolve(result);
    });
  });
}

function toRound(result: Result): RoundResult {
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.errors + result.timeouts + result.non2xx,
    statusCodes: Object.fromEntries(
      Object.entries(result.statusCodeStats).map(([code, { count }]) => [
        code,
        Number(count),
      ]),
    ),
  };
}

/** The element of median req/s (the lower middle one for an even count). */
export function medianRound(rounds: readonly RoundResult[]): RoundResult {
  const sorted = [...rounds].sort((a, b) => a.rps - b.rps);
  const middle = sorted[Math.floor((sorted.length - 1) / 2)];
  if (middle === undefined) throw new Error('no rounds to take the median of');
  return middle;
}

/**
 * Measures `request` against `baseUrl`. `onRound` is called before each round (round 0 is the warm-up), for
 * progress lines.
 */
export async function measure(
  baseUrl: string,
  request: LoadRequest,
  options: {
    settings: LoadSettings;
    onRound?: (round: number, previous: RoundResult | null) => void;
  },
): Promise<LoadResult> {
  const { settings, onRound } = options;
  const base: Options = {
    url: `${baseUrl}${request.path}`,
    method: request.method,
    headers: request.headers,
    connections: settings.connections,
    timeout: 30,
  };
  if (request.body !== undefined) base.body = request.body;
  if (settings.warmup > 0) {
    onRound?.(0, null);
    await run({ ...base, duration: settings.warmup });
  }
  const rounds: RoundResult[] = [];
  for (let i = 1; i <= settings.rounds; i++) {
    onRound?.(i, rounds.at(-1) ?? null);
    rounds.push(toRound(await run({ ...base, duration: settings.duration })));
  }
  return { ...medianRound(rounds), rounds };
}
