/**
 * Politeness: requests to one host go at most `perHost` at a time and start at least `spacingMs` apart;
 * at most `total` are in flight overall. Every request of a check goes through here, robots.txt and each
 * redirect hop included, each counted against the host it is sent to. Times come from the clock, so tests
 * measure the spacing without waiting for it.
 */
import type { Clock } from '../clock.js';

/** The limits (docs/link-health.md#politeness). */
export interface PacerLimits {
  readonly perHost: number;
  readonly spacingMs: number;
  readonly total: number;
}

/** The defaults: 2 at once and 1 per second per host, 16 in flight overall. */
export const POLITE: PacerLimits = { perHost: 2, spacingMs: 1_000, total: 16 };

interface Host {
  active: number;
  lastStart: number;
  /** A wake-up is set for when the spacing allows the next start. */
  sleeping: boolean;
  readonly waiting: (() => void)[];
}

/** Runs tasks per host within the limits. */
export class HostPacer {
  readonly #clock: Clock;
  readonly #limits: PacerLimits;
  readonly #hosts = new Map<string, Host>();
  #active = 0;
  #queued = 0;

  constructor(clock: Clock, limits: PacerLimits = POLITE) {
    this.#clock = clock;
    this.#limits = limits;
  }

  /** Tasks running now. */
  get inFlight(): number {
    return this.#active;
  }

  /** Tasks waiting for their turn. */
  get queued(): number {
    return this.#queued;
  }

  /** Runs `task` as a request to `host` once the limits allow it. */
  async run<T>(host: string, task: () => Promise<T>): Promise<T> {
    let state = this.#hosts.get(host);
    if (state === undefined) {
      state = {
        active: 0,
        lastStart: -Infinity,
        sleeping: false,
        waiting: [],
      };
      this.#hosts.set(host, state);
    }
    const turn = state;
    await new Promise<void>((resolve) => {
      turn.waiting.push(resolve);
      this.#queued++;
      this.#pump();
    });
    try {
      return await task();
    } finally {
      turn.active--;
      this.#active--;
      this.#pump();
    }
  }

  /** Starts whatever the limits allow now, and sets wake-ups for hosts that must wait for spacing. */
  #pump(): void {
    const now = this.#clock.now();
    for (const [name, host] of this.#hosts) {
      if (host.waiting.length === 0) {
        // Forgotten once idle and past its spacing: a new request may start at once anyway.
        if (
          host.active === 0 &&
          !host.sleeping &&
          now - host.lastStart >= this.#limits.spacingMs
        )
          this.#hosts.delete(name);
        continue;
      }
      if (this.#active >= this.#limits.total) return;
      if (host.active >= this.#limits.perHost || host.sleeping) continue;
      const due = host.lastStart + this.#limits.spacingMs;
      if (now < due) {
        host.sleeping = true;
        void this.#clock.sleep(due - now).then(() => {
          host.sleeping = false;
          this.#pump();
        });
        continue;
      }
      host.active++;
      this.#active++;
      this.#queued--;
      host.lastStart = now;
      host.waiting.shift()?.();
    }
  }
}
