/**
 * A clock for tests: time moves only when the test says so, and every sleep that falls due on the way
 * resolves in order of its time, with the promise work it starts run before the next one.
 */
import type { Clock } from './clock.js';

interface Sleeper {
  readonly at: number;
  readonly seq: number;
  readonly resolve: () => void;
}

/** Lets pending promise callbacks and I/O callbacks run (a real macrotask). */
export const realTick = (): Promise<void> =>
  new Promise((resolve) => setImmediate(resolve));

/** A {@link Clock} moved by the test. */
export class ManualClock implements Clock {
  #now: number;
  #seq = 0;
  #sleepers: Sleeper[] = [];

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted === true) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const sleeper: Sleeper = {
        at: this.#now + Math.max(0, ms),
        seq: this.#seq++,
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = (): void => {
        this.#sleepers = this.#sleepers.filter((s) => s !== sleeper);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#sleepers.push(sleeper);
    });
  }

  /** How many sleeps are waiting. */
  get sleeping(): number {
    return this.#sleepers.length;
  }

  /** When the next sleep falls due, or `undefined`. */
  nextDue(): number | undefined {
    return this.#earliest()?.at;
  }

  /** Moves time forward by `ms`, waking each sleep on the way at its own time. */
  async advance(ms: number): Promise<void> {
    const target = this.#now + ms;
    for (;;) {
      const next = this.#earliest();
      if (next === undefined || next.at > target) break;
      this.#wake(next);
      await realTick();
    }
    this.#now = target;
    await realTick();
  }

  /**
   * Runs until `done()` holds: lets real I/O run, and whenever a turn passes with sleeps waiting (and
   * `canAdvance()` allows it: say no while real requests are in flight), jumps to the earliest and wakes
   * it. Throws after `maxSteps` turns (a test that would never end).
   */
  async runUntil(
    done: () => boolean,
    options: { canAdvance?: () => boolean; maxSteps?: number } = {},
  ): Promise<void> {
    const canAdvance = options.canAdvance ?? (() => true);
    const maxSteps = options.maxSteps ?? 1_000_000;
    for (let step = 0; !done(); step++) {
      if (step >= maxSteps)
        throw new Error('ManualClock.runUntil: too many steps');
      await realTick();
      if (done()) return;
      const next = this.#earliest();
      if (next !== undefined && canAdvance()) this.#wake(next);
    }
  }

  #earliest(): Sleeper | undefined {
    let best: Sleeper | undefined;
    for (const s of this.#sleepers) {
      if (
        best === undefined ||
        s.at < best.at ||
        (s.at === best.at && s.seq < best.seq)
      )
        best = s;
    }
    return best;
  }

  #wake(sleeper: Sleeper): void {
    this.#sleepers = this.#sleepers.filter((s) => s !== sleeper);
    if (sleeper.at > this.#now) this.#now = sleeper.at;
    sleeper.resolve();
  }
}
