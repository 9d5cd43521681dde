/**
 * Politeness: requests to one host go at most `perHost` at a time and leave at least `spacingMs` apart;
 * at most `total` are in flight overall. Every request of a check goes through here, robots.txt and each
 * redirect hop included, each counted against the host it is sent to. Times come from the clock, so tests
 * measure the spacing without waiting for it.
 *
 * The spacing counts from the moment a request is actually written to its socket, not from the moment
 * the pacer lets it go: between the two come the connection's set-up, the guard's address checks and the
 * HTTP client's own queue, which can take longer for one request than for the next. So a task is given a
 * `sent` callback to call when its request leaves (the outbound module calls it: `OutboundRequest.onSent`);
 * until then no other request to that host is let go, and the next one goes `spacingMs` after the send.
 * A task that ends without sending (refused, no connection) leaves the spacing counted from its start.
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

/**
 * What a host's next request waits beyond `spacingMs` after the previous one was sent. The clock counts
 * whole milliseconds (two readings `spacingMs` apart may be up to 1 ms less apart in real time), and a
 * site sees each request when it arrives, not when it was written: on a quiet loopback the arrivals of
 * requests sent 1,001 ms apart were stamped as little as 993 ms apart (`npm run bench:links`). Twenty
 * milliseconds more (2 % of a second) keeps the gap a site sees at a second or more.
 */
export const SPACING_MARGIN_MS = 20;

/** Tells the pacer that the request of a task has just been written to its socket. */
export type Sent = () => void;

interface Host {
  active: number;
  /** When the last request to the host left (or was let go, if it never left). */
  last: number;
  /** A request was let go and has not left yet: nothing else goes until it has (or has ended). */
  unsent: boolean;
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

  /**
   * Runs `task` as a request to `host` once the limits allow it. The task calls `sent` when its request
   * is written to the socket (again if it is written again); calls after the task ended are ignored.
   */
  async run<T>(host: string, task: (sent: Sent) => Promise<T>): Promise<T> {
    let state = this.#hosts.get(host);
    if (state === undefined) {
      state = {
        active: 0,
        last: -Infinity,
        unsent: false,
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
    let ended = false;
    let left = false;
    const sent: Sent = () => {
      if (ended) return;
      turn.last = Math.max(turn.last, this.#clock.now());
      if (!left) {
        left = true;
        turn.unsent = false;
      }
      this.#pump();
    };
    try {
      return await task(sent);
    } finally {
      ended = true;
      if (!left) turn.unsent = false;
      turn.active--;
      this.#active--;
      this.#pump();
    }
  }

  /** Starts whatever the limits allow now, and sets wake-ups for hosts that must wait for spacing. */
  #pump(): void {
    const now = this.#clock.now();
    for (const [name, host] of this.#hosts) {
      const due = host.last + this.#limits.spacingMs + SPACING_MARGIN_MS;
      if (host.waiting.length === 0) {
        // Forgotten once idle and past its spacing: a new request may start at once anyway.
        if (host.active === 0 && !host.sleeping && now >= due)
          this.#hosts.delete(name);
        continue;
      }
      if (this.#active >= this.#limits.total) return;
      if (host.active >= this.#limits.perHost || host.unsent || host.sleeping)
        continue;
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
      host.last = now;
      host.unsent = true;
      host.waiting.shift()?.();
    }
  }
}
