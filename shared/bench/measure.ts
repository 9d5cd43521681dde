/**
 * Timing helpers for the engine benchmark: run an operation repeatedly for a time budget and report
 * operations per second. Measurements only; nothing here asserts on time.
 */

/** One measured operation. */
export interface Measurement {
  readonly name: string;
  readonly opsPerSecond: number;
  readonly iterations: number;
  readonly meanMs: number;
}

/** Options of {@link measure}. */
export interface MeasureOptions {
  /** Minimum wall-clock time to spend, in ms (after warm-up). */
  readonly budgetMs: number;
  /** Minimum iterations, whatever the budget. */
  readonly minIterations: number;
}

/** A sink that keeps results alive so the optimizer cannot drop the work. */
let sink = 0;

/** The number of results the sink has seen (printed once, so it is observable). */
export function sinkValue(): number {
  return sink;
}

/** Runs `op` repeatedly for the budget and returns its rate. */
export function measure(
  name: string,
  op: () => unknown,
  options: MeasureOptions,
): Measurement {
  for (let i = 0; i < 3; i++) consume(op());
  let iterations = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < options.budgetMs || iterations < options.minIterations) {
    consume(op());
    iterations++;
    elapsed = performance.now() - start;
  }
  return {
    name,
    iterations,
    opsPerSecond: (iterations * 1000) / elapsed,
    meanMs: elapsed / iterations,
  };
}

function consume(value: unknown): void {
  if (Array.isArray(value)) sink += value.length;
  else if (value !== null && typeof value === 'object') sink += 1;
}
