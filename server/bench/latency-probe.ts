/**
 * The latency probe (issue 17, item 7): a cheap request (`GET /healthz`) sent at a fixed interval, open
 * loop, whatever else the server is doing. A request is sent every `intervalMs` even while earlier ones
 * are still waiting, so a server that holds its event loop for a second shows it in a hundred samples
 * (as a hundred clients would see it), not in one. A probe still waiting when the probe stops counts with
 * the time it had waited by then.
 */
import { Agent, request } from 'node:http';

/** Percentiles of the probe's latencies, in ms. */
export interface LatencySummary {
  samples: number;
  p50: number;
  p99: number;
  max: number;
}

/**
 * The nearest-rank percentiles of `latencies` (ms): p50, p99 and the maximum; all 0 for no samples.
 *
 * @example
 * summarizeLatencies([1, 2, 3, 100]); // { samples: 4, p50: 2, p99: 100, max: 100 }
 */
export function summarizeLatencies(
  latencies: readonly number[],
): LatencySummary {
  const sorted = [...latencies].sort((a, b) => a - b);
  const rank = (p: number) =>
    sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
  return {
    samples: sorted.length,
    p50: rank(50),
    p99: rank(99),
    max: sorted.at(-1) ?? 0,
  };
}

/** One probe: when it was sent and how long its answer took (ms, on the probe's clock). */
export interface ProbeSample {
  sent: number;
  ms: number;
}

/** The latencies of the samples sent while one of `windows` (`[start, end]`, inclusive) was open. */
export function latenciesDuring(
  samples: readonly ProbeSample[],
  windows: readonly (readonly [number, number])[],
): number[] {
  return samples
    .filter((s) =>
      windows.some(([start, end]) => s.sent >= start && s.sent <= end),
    )
    .map((s) => s.ms);
}

/** What {@link LatencyProbe} needs. */
export interface ProbeOptions {
  /** The URL asked, e.g. `http://127.0.0.1:40123/healthz`. */
  url: string;
  /** Interval between two sends, ms. */
  intervalMs: number;
  /** The clock (ms); tests pass their own. */
  now?: () => number;
  /** Sends one request and resolves when its answer has been read; tests pass their own. */
  send?: (url: string) => Promise<void>;
}

/** Keep-alive sockets, so a probe measures the server, not connection setup. */
const agent = new Agent({ keepAlive: true, maxSockets: 256 });

/** One GET, resolved once the whole answer has been read (rejected on a network error). */
function get(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent }, (res) => {
      res.resume();
      res.on('end', resolve);
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** A running probe: {@link start} it, do the work to observe, then {@link stop} it for the latencies. */
export class LatencyProbe {
  readonly #options: Required<ProbeOptions>;
  readonly #done: ProbeSample[] = [];
  /** Sent time of each probe still waiting, by probe number. */
  readonly #pending = new Map<number, number>();
  #sent = 0;
  #timer: ReturnType<typeof setInterval> | undefined;
  #failures = 0;

  constructor(options: ProbeOptions) {
    this.#options = { now: () => performance.now(), send: get, ...options };
  }

  /** Starts sending. */
  start(): void {
    this.#timer ??= setInterval(() => this.tick(), this.#options.intervalMs);
  }

  /** Sends one probe (the interval calls it; tests call it directly). */
  tick(): void {
    const { now, send, url } = this.#options;
    const id = (this.#sent += 1);
    const sent = now();
    this.#pending.set(id, sent);
    send(url).then(
      () => {
        if (this.#pending.delete(id))
          this.#done.push({ sent, ms: now() - sent });
      },
      () => {
        if (this.#pending.delete(id)) this.#failures += 1;
      },
    );
  }

  /** The probe's clock (ms), to mark windows its samples are sorted into ({@link latenciesDuring}). */
  now(): number {
    return this.#options.now();
  }

  /** Stops sending; the samples so far, those still waiting counted with their wait until now. */
  stop(): { samples: ProbeSample[]; failures: number } {
    clearInterval(this.#timer);
    this.#timer = undefined;
    const at = this.#options.now();
    const samples = [
      ...this.#done,
      ...[...this.#pending.values()].map((sent) => ({ sent, ms: at - sent })),
    ];
    this.#done.length = 0;
    this.#pending.clear();
    const failures = this.#failures;
    this.#failures = 0;
    return { samples, failures };
  }
}
