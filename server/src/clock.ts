/**
 * Time for work that waits (outbound timeouts, the link checker's schedule and politeness): the system
 * clock in the server, a manual one in tests (`test-clock.ts`), so that hours and days pass in a test
 * without waiting for them.
 */
import { setTimeout as delay } from 'node:timers/promises';

/** Reads the time and waits. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /**
   * Resolves after `ms`; rejects with the signal's reason when `signal` aborts first (a sleep keeps the
   * process alive: whoever sleeps ends it when it stops).
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The system clock. */
export const SYSTEM_CLOCK: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    delay(Math.max(0, ms), undefined, signal === undefined ? {} : { signal }),
};
