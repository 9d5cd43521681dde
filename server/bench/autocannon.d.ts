/**
 * The part of autocannon 8's API the benchmark uses (the package ships no types, and adding
 * `@types/autocannon` is not ours to do).
 */
declare module 'autocannon' {
  /** Percentiles of one hdr histogram, as autocannon reports them. */
  export interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    sent: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
  }

  /** One request of a sequence. */
  export interface RequestSpec {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    /** Called before each send of this entry with the defaults merged in; returns the request to send. */
    setupRequest?: (request: RequestSpec, context: object) => RequestSpec;
  }

  /** Options of one run. */
  export interface Options {
    url: string;
    connections?: number;
    duration?: number;
    /** Stop after this many requests instead of after `duration`. */
    amount?: number;
    pipelining?: number;
    timeout?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    requests?: RequestSpec[];
  }

  /** The result of one run. */
  export interface Result {
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    statusCodeStats: Record<string, { count: number }>;
  }

  /** A running instance: an event emitter that can be stopped early. */
  export interface Instance {
    stop(): void;
  }

  function autocannon(
    options: Options,
    callback: (error: Error | null, result: Result) => void,
  ): Instance;
  export default autocannon;
}
