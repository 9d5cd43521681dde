import type { Metric, Registry } from 'prom-client';

/** One sample line as prom-client's registry formats it. */
interface Sample {
  readonly metricName: string;
  readonly labels: Readonly<Record<string, string | number>>;
  readonly value: number;
}

/** One label combination of a {@link FastHistogram}: observing is a bucket search and three additions. */
export class HistogramSeries {
  /** Observations per bucket (not cumulative); the last slot is `+Inf`. */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(
    readonly labels: Readonly<Record<string, string>>,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Float64Array(bounds.length + 1);
  }

  /** Records one value. */
  observe(value: number): void {
    let bucket = 0;
    while (bucket < this.bounds.length && value > (this.bounds[bucket] ?? 0))
      bucket++;
    this.counts[bucket] = (this.counts[bucket] ?? 0) + 1;
    this.sum += value;
    this.count++;
  }
}

/** Options of {@link FastHistogram}. */
export interface FastHistogramOptions {
  readonly name: string;
  readonly help: string;
  /** Upper bounds of the buckets, ascending (`+Inf` is implied). */
  readonly buckets: readonly number[];
  readonly registry: Registry;
}

/**
 * A Prometheus histogram for the request path. prom-client's own histogram hashes and validates the
 * label values on every observation, which costs microseconds per call. Here a label combination is
 * found by one string key in a map (its labels are built once, when the key is new), and observing only
 * adds numbers: some 50 ns. prom-client still renders it: its registry formats whatever a metric's `get()`
 * returns, in the shape its own metrics use.
 */
export class FastHistogram {
  readonly #series = new Map<string, HistogramSeries>();
  readonly #options: FastHistogramOptions;

  constructor(options: FastHistogramOptions) {
    this.#options = options;
    const view = {
      name: options.name,
      help: options.help,
      type: 'histogram',
      aggregator: 'sum',
      get: () => Promise.resolve(this.#snapshot()),
      reset: () => this.#series.clear(),
    };
    // The registry only reads these members; the type names prom-client's own classes.
    options.registry.registerMetric(view as unknown as Metric);
  }

  /** The series for `key`, made with `labels` the first time the key is seen. */
  series(
    key: string,
    labels: () => Readonly<Record<string, string>>,
  ): HistogramSeries {
    let series = this.#series.get(key);
    if (series === undefined) {
      series = new HistogramSeries(labels(), this.#options.buckets);
      this.#series.set(key, series);
    }
    return series;
  }

  /** Every series seen so far. */
  all(): IterableIterator<HistogramSeries> {
    return this.#series.values();
  }

  /** What the registry formats: every series' cumulative buckets, sum and count. */
  #snapshot(): {
    name: string;
    help: string;
    type: string;
    values: Sample[];
    aggregator: 'sum';
  } {
    const { name, help, buckets } = this.#options;
    const values: Sample[] = [];
    for (const series of this.#series.values()) {
      let cumulative = 0;
      buckets.forEach((bound, i) => {
        cumulative += series.counts[i] ?? 0;
        values.push({
          metricName: `${name}_bucket`,
          labels: { le: bound, ...series.labels },
          value: cumulative,
        });
      });
      values.push(
        {
          metricName: `${name}_bucket`,
          labels: { le: '+Inf', ...series.labels },
          value: series.count,
        },
        { metricName: `${name}_sum`, labels: series.labels, value: series.sum },
        {
          metricName: `${name}_count`,
          labels: series.labels,
          value: series.count,
        },
      );
    }
    // `aggregator`: how the primary of `WORKERS` > 1 combines the workers' series (prom-client needs it).
    return { name, help, type: 'histogram', values, aggregator: 'sum' };
  }
}
