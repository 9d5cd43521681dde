/**
 * Long computations written once, run either at once or in slices. Such a computation is a generator that
 * yields (nothing) at points where it may be paused, and returns its result: {@link runAtOnce} runs it
 * to the end; {@link runInSlices} pauses it whenever it has run for `sliceMs`, so a server's other work
 * (its event loop) gets a turn between slices. Where the pause comes from is the caller's (a Node server
 * passes `setImmediate`): this module runs unchanged in Node and in browsers.
 */

/** A computation that may be paused at each `yield`, returning `T`. */
export type Sliced<T> = Generator<void, T, void>;

/** How {@link runInSlices} pauses. */
export interface SliceOptions {
  /** Resolves when the paused computation may go on (e.g. after a macrotask). */
  readonly pause: () => Promise<void>;
  /** The longest a slice runs before it pauses, ms. */
  readonly sliceMs: number;
  /** The clock, ms (default `Date.now`). */
  readonly now?: () => number;
}

/** Runs a sliced computation to its end without pausing. */
export function runAtOnce<T>(steps: Sliced<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
  }
}

/**
 * Runs a sliced computation, pausing at its next yield once a slice has run `sliceMs` or longer. Its
 * inputs must not change until it has finished.
 */
export async function runInSlices<T>(
  steps: Sliced<T>,
  options: SliceOptions,
): Promise<T> {
  const pauseIfDue = slicePauser(options);
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
    const paused = pauseIfDue();
    if (paused !== undefined) await paused;
  }
}

/**
 * The slicing of {@link runInSlices} for a loop that is not a generator (one that awaits as it goes): call
 * the answer at each point where the loop may pause; once the slice has run `sliceMs` or longer it answers
 * the pause to await (and a new slice starts after it), else `undefined`.
 */
export function slicePauser(
  options: SliceOptions,
): () => Promise<void> | undefined {
  const now = options.now ?? Date.now;
  let started = now();
  return () => {
    if (now() - started < options.sliceMs) return undefined;
    return options.pause().then(() => {
      started = now();
    });
  };
}
