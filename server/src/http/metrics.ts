/**
 * Prometheus metrics: one registry per server, with request counts and latencies by route pattern and
 * status, cache figures read at scrape time, repository call latencies, open event streams, rate-limit
 * refusals and the process metrics of prom-client. Everything on the request path is a map lookup and a
 * few additions; everything that reads other modules' state runs only when Prometheus scrapes.
 */
import type { Context } from 'hono';
import { routePath } from 'hono/route';
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { FastHistogram } from './fast-histogram.js';

/** What a cache reports at scrape time: cumulative hits and misses, current entries and bytes. */
export interface CacheStats {
  readonly hits: number;
  readonly misses: number;
  readonly entries: number;
  readonly bytes: number;
}

/** Options of {@link Metrics}. */
export interface MetricsOptions {
  /** Collect prom-client's process and Node.js metrics (default true). */
  readonly processMetrics?: boolean;
}

/** One finished HTTP request, as {@link Metrics.observeRequest} records it. */
export interface RequestSample {
  readonly method: string;
  /** The route pattern that answered (`/configs/:name`), never the raw path. */
  readonly route: string;
  readonly status: number;
  readonly seconds: number;
}

/** The methods that get their own label value; anything else is counted as `OTHER`. */
const METHODS = new Set([
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'DELETE',
  'OPTIONS',
  'PATCH',
]);

/** The prefix of every metric of ours (process metrics keep their standard names). */
const PREFIX = 'linkconfig_';

/** The metrics of one server. */
export class Metrics {
  /** The registry `GET /metrics` renders. */
  readonly registry = new Registry();
  #openStreams: (() => number) | undefined;
  #render: (() => Promise<string>) | undefined;

  readonly #duration: FastHistogram;
  readonly #queries: FastHistogram;
  readonly #rateLimited: Counter<'budget'>;
  readonly #caches = new Map<string, () => CacheStats>();

  constructor(options: MetricsOptions = {}) {
    const registers = [this.registry];
    this.#duration = new FastHistogram({
      name: `${PREFIX}http_request_duration_seconds`,
      help: 'Time to answer an HTTP request (until the response is handed to Node), by route pattern and status',
      // Cached reads answer in well under a millisecond; expensive expressions can take a second.
      buckets: [
        0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5,
        5, 10,
      ],
      registry: this.registry,
    });
    const durations = this.#duration;
    // The request count is the histogram's count, published under its conventional name at scrape time.
    new Counter({
      name: `${PREFIX}http_requests_total`,
      help: 'HTTP requests answered, by route pattern and status',
      labelNames: ['method', 'route', 'status'],
      registers,
      collect() {
        this.reset();
        for (const series of durations.all())
          this.inc(series.labels, series.count);
      },
    });
    this.#queries = new FastHistogram({
      name: `${PREFIX}db_query_duration_seconds`,
      help: 'Time of each storage call (one or a few SQL statements), by repository operation and outcome',
      buckets: [
        0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5,
        1, 2.5,
      ],
      registry: this.registry,
    });
    this.#rateLimited = new Counter({
      name: `${PREFIX}rate_limited_total`,
      help: 'Requests refused with 429 because a client spent its budget, by budget',
      labelNames: ['budget'],
      registers,
    });
    const streams = () => this.#openStreams?.() ?? 0;
    new Gauge({
      name: `${PREFIX}event_streams_open`,
      help: 'Event streams (change feed: /events and tRPC subscriptions) open right now',
      registers,
      collect() {
        this.set(streams());
      },
    });
    this.#cacheMetrics();
    if (options.processMetrics ?? true) {
      collectDefaultMetrics({ register: this.registry });
    }
  }

  /** Records one answered request. */
  observeRequest(sample: RequestSample): void {
    const method = METHODS.has(sample.method) ? sample.method : 'OTHER';
    this.#duration
      .series(`${method} ${sample.route} ${sample.status}`, () => ({
        method,
        route: sample.route,
        status: String(sample.status),
      }))
      .observe(sample.seconds);
  }

  /** Records one storage call. */
  observeQuery(operation: string, seconds: number, ok: boolean): void {
    const outcome = ok ? 'ok' : 'error';
    this.#queries
      .series(`${operation} ${outcome}`, () => ({ operation, outcome }))
      .observe(seconds);
  }

  /** Reads the number of open event streams (the change feed's count) when Prometheus scrapes. */
  countStreams(read: () => number): void {
    this.#openStreams = read;
  }

  /** Counts one request refused by a rate limit. */
  rateLimited(budget: string): void {
    this.#rateLimited.inc({ budget });
  }

  /**
   * Registers a cache whose figures are read when Prometheus scrapes (nothing runs per request). A second
   * registration under the same name replaces the first. Returns a function that unregisters it.
   *
   * @example
   * metrics.registerCache('configs', () => ({ hits, misses, entries: lru.size, bytes: lru.weight }));
   */
  registerCache(name: string, read: () => CacheStats): () => void {
    this.#caches.set(name, read);
    return () => {
      if (this.#caches.get(name) === read) this.#caches.delete(name);
    };
  }

  /**
   * Renders `GET /metrics` with `render` instead of this registry alone: in a worker of `WORKERS` > 1,
   * the metrics of all workers, summed by the primary.
   */
  renderWith(render: () => Promise<string>): void {
    this.#render = render;
  }

  /** The exposition text and its content type, for `GET /metrics`. */
  async render(): Promise<{ body: string; contentType: string }> {
    return {
      body: await (this.#render?.() ?? this.registry.metrics()),
      contentType: this.registry.contentType,
    };
  }

  /** Cache gauges and counters, filled from the registered readers at each scrape. */
  #cacheMetrics(): void {
    const caches = this.#caches;
    const registers = [this.registry];
    const figure = (
      key: keyof CacheStats,
      kind: 'counter' | 'gauge',
      help: string,
    ): void => {
      const name = `${PREFIX}cache_${key}${kind === 'counter' ? '_total' : ''}`;
      // A cache owns its cumulative counts; at scrape time they are copied in, so a reset-and-add
      // is the way to publish them through prom-client's counter type.
      if (kind === 'counter') {
        new Counter({
          name,
          help,
          labelNames: ['cache'],
          registers,
          collect() {
            this.reset();
            for (const [cache, read] of caches)
              this.inc({ cache }, read()[key]);
          },
        });
      } else {
        new Gauge({
          name,
          help,
          labelNames: ['cache'],
          registers,
          collect() {
            this.reset();
            for (const [cache, read] of caches)
              this.set({ cache }, read()[key]);
          },
        });
      }
    };
    figure('hits', 'counter', 'Lookups answered from the cache, by cache');
    figure('misses', 'counter', 'Lookups the cache could not answer, by cache');
    figure('entries', 'gauge', 'Entries held, by cache');
    figure('bytes', 'gauge', 'Approximate bytes held, by cache');
  }
}

/**
 * Records one answered request of `c` that started at `started` (`performance.now()`): its method,
 * route pattern and status, and the time since.
 */
export function observeAnswer(
  metrics: Metrics,
  c: Context,
  started: number,
): void {
  metrics.observeRequest({
    method: c.req.method,
    // The pattern of the handler that answered: bounded by the routes we register, whatever the path.
    route: routePath(c),
    status: c.res.status,
    seconds: (performance.now() - started) / 1000,
  });
}
