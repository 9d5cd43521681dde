/**
 * Drives one scenario on one server with autocannon: a warm-up, then `rounds` rounds of `duration`
 * seconds; the round with the median req/s is the result (its p99 goes with it).
 *
 * Requests come from a {@link RequestSequence}. autocannon gives every connection its own iterator over
 * a `requests` array, all starting at the first entry, so a plain array would send the same request on
 * all connections at once. Instead one `setupRequest` hook takes the next request from a counter shared
 * by all connections: request `n` of the run is `sequence.at(n)`, whatever connection sends it, and the
 * counter starts at 0 for every server measured, so each sees the same requests in the same order.
 */
import autocannon from 'autocannon';
import type { Options, RequestSpec, Result } from 'autocannon';
import type {
  BenchRequest,
  RequestSequence,
} from './sequences/request-sequences.js';

/** How hard and how long to push. */
export interface LoadSettings {
  connections: number;
  /** Seconds per round. */
  duration: number;
  rounds: number;
  /** Seconds of warm-up before the rounds (not recorded). */
  warmup: number;
}

/** One round's figures. */
export interface RoundResult {
  /** Responses per second over the round. */
  rps: number;
  /** Latency percentiles, ms. */
  p50: number;
  p99: number;
  /** Requests that failed: connection errors, timeouts and non-2xx answers. */
  failures: number;
  /** Responses per status code. */
  statusCodes: Record<string, number>;
}

/** A scenario's result: the median round, every round, and how far into the sequence the run went. */
export interface LoadResult extends RoundResult {
  rounds: RoundResult[];
  /** Requests taken from the sequence (warm-up included). */
  requestsSent: number;
  /** Distinct requests in the sequence. */
  distinct: number;
  /**
   * Requests of the run that repeated an earlier request of the same run (warm-up included): 0 when every
   * request was distinct. Null when not counted.
   */
  repeats: number | null;
  /** CPU time of the server's processes over the rounds ÷ the answers of the rounds, µs; null if unknown. */
  cpuMicrosPerRequest: number | null;
  /** The server's CPU time over the rounds ÷ their wall time: cores it kept busy (1 = one core). */
  serverCores: number | null;
  /** The same for the benchmark's own process (the load generator, autocannon). */
  loadGeneratorCores: number;
}

/** Headers sent with every request; a body is always JSON. */
export function requestHeaders(
  request: BenchRequest,
  extra: Readonly<Record<string, string>> = {},
): Record<string, string> {
  return request.body === undefined
    ? { ...extra }
    : { 'content-type': 'application/json', ...extra };
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
  const seconds = result.duration > 0 ? result.duration : 1;
  return {
    rps: result.requests.total / seconds,
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
 * A request source for autocannon that walks `sequence` from its start with one counter for all
 * connections. `sent()` says how many requests it handed out.
 */
export function sequenceCursor(
  sequence: RequestSequence,
  headers: Readonly<Record<string, string>> = {},
): { spec: RequestSpec; sent: () => number } {
  let next = 0;
  const spec: RequestSpec = {
    setupRequest: (defaults) => {
      const request = sequence.at(next % sequence.size);
      next++;
      const out: RequestSpec = {
        ...defaults,
        method: request.method,
        path: request.path,
        headers: { ...defaults.headers, ...requestHeaders(request, headers) },
      };
      if (request.body !== undefined) out.body = request.body;
      else delete out.body;
      return out;
    },
  };
  return { spec, sent: () => next };
}

/**
 * Measures `sequence` against `baseUrl`. `onRound` is called before each round (round 0 is the warm-up),
 * for progress lines; `headers` are added to every request (e.g. `accept-encoding`).
 */
export async function measure(
  baseUrl: string,
  sequence: RequestSequence,
  options: {
    settings: LoadSettings;
    headers?: Readonly<Record<string, string>>;
    onRound?: (round: number, previous: RoundResult | null) => void;
    /** The server's CPU time so far, µs (null when unknown), read before and after the rounds. */
    cpuMicros?: () => Promise<number | null>;
  },
): Promise<LoadResult> {
  const { settings, onRound } = options;
  const serverCpu = options.cpuMicros ?? (() => Promise.resolve(null));
  const cursor = sequenceCursor(sequence, options.headers);
  const base: Options = {
    url: baseUrl,
    connections: settings.connections,
    timeout: 60,
    requests: [cursor.spec],
  };
  if (settings.warmup > 0) {
    onRound?.(0, null);
    await run({ ...base, duration: settings.warmup });
  }
  const rounds: RoundResult[] = [];
  let answers = 0;
  const cpuBefore = await serverCpu();
  const ownBefore = process.cpuUsage();
  const wallBefore = performance.now();
  for (let i = 1; i <= settings.rounds; i++) {
    onRound?.(i, rounds.at(-1) ?? null);
    const result = await run({ ...base, duration: settings.duration });
    answers += result.requests.total;
    rounds.push(toRound(result));
  }
  const wallMicros = (performance.now() - wallBefore) * 1000;
  const own = process.cpuUsage(ownBefore);
  const cpuAfter = await serverCpu();
  const cpu =
    cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore;
  return {
    ...medianRound(rounds),
    rounds,
    requestsSent: cursor.sent(),
    distinct: sequence.size,
    repeats: null,
    cpuMicrosPerRequest: cpu === null || answers === 0 ? null : cpu / answers,
    serverCores: cpu === null ? null : cpu / wallMicros,
    loadGeneratorCores: (own.user + own.system) / wallMicros,
  };
}

/**
 * Sends the first `amount` requests of `sequence` (the soak), `connections` at a time, and returns the
 * figures. `stopIf` is polled twice a second: when it says so (the server died), the run ends early.
 */
export async function sendAmount(
  baseUrl: string,
  sequence: RequestSequence,
  options: { amount: number; connections: number; stopIf?: () => boolean },
): Promise<RoundResult & { completed: number }> {
  const cursor = sequenceCursor(sequence);
  const result = await new Promise<Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: baseUrl,
        connections: Math.min(options.connections, options.amount),
        amount: options.amount,
        timeout: 120,
        requests: [cursor.spec],
      },
      (error, r) => {
        clearInterval(poll);
        if (error) reject(error);
        else resolve(r);
      },
    );
    const poll = setInterval(() => {
      if (options.stopIf?.() === true) instance.stop();
    }, 500);
  });
  return { ...toRound(result), completed: result.requests.total };
}
