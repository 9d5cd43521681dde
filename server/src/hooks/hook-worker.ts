/**
 * The delivery worker (docs/publishing.md, "Webhooks"): off the write path, it follows the one log of
 * changes for every hook from the hook's cursor. It claims hooks with entries after their cursor under a
 * lease in the database (with several instances one delivers per hook), delivers their events one at a
 * time in log order (per-hook ordering), moves the cursor past each event delivered or not meant for the
 * hook, and after a failed attempt leaves the cursor where it is and tries the same event again after a
 * growing delay, for up to 24 hours (then it records that it gave up and goes on). Hooks are served side by
 * side, so a receiver that never answers holds up only its own hook, for one time limit per attempt.
 *
 * Most servers have no hook: a round that claims nothing looks whether any hook that delivers is stored
 * (`HookStore.anyDeliverable`), and when none is, the writes of the next `idleMs` pass without a round (no
 * claim transaction per write). A hook made through this process's service wakes the worker at once
 * ({@link HookWorker.wake}); one made elsewhere (another instance, the CLI on the same file) is found by
 * the first round after that moment, so its events go out at most `idleMs` (or the poll) later.
 */
import { randomUUID } from 'node:crypto';
import { SYSTEM_CLOCK } from '../clock.js';
import type { Clock } from '../clock.js';
import type { Outbound } from '../outbound/index.js';
import type {
  HookProgress,
  HookStore,
  StoredDelivery,
  StoredHook,
} from '../storage/hook-store.js';
import { attemptDelivery, backoffMs } from './hook-delivery.js';
import { payloadFor } from './hook-log.js';
import type { HookLog } from './hook-log.js';

/** Options of {@link HookWorker}. */
export interface HookWorkerOptions {
  readonly store: HookStore;
  readonly log: HookLog;
  readonly outbound: Outbound;
  readonly clock?: Clock;
  /** Time limit of one attempt, ms (default 10 s). */
  readonly timeoutMs?: number;
  /** How long an event is tried before the worker gives up on it, ms (default 24 h). */
  readonly retryForMs?: number;
  /** Delivery attempts kept per hook (default 200). */
  readonly keep?: number;
  /** Hooks served at once by this process (default 8). */
  readonly concurrency?: number;
  /** How long a claim of a hook lasts, ms (default 2 minutes); renewed while its events go out. */
  readonly leaseMs?: number;
  /** How often the log is looked at without a hint of new entries, ms (default 5 s). */
  readonly pollMs?: number;
  /** How long writes pass without a round once a round found no hook that delivers, ms (default 1 s). */
  readonly idleMs?: number;
  /** Entries read per page (default 100). */
  readonly pageSize?: number;
  /** Told of a round that failed (it is tried again at the next one). */
  readonly onError?: (error: unknown) => void;
}

/** Counts of attempts by outcome (`delivered`, `failed`, `gave-up`), for `/metrics`. */
export type HookStats = Map<string, number>;

/** The delivery worker of one process. */
export class HookWorker {
  readonly #store: HookStore;
  readonly #log: HookLog;
  readonly #outbound: Outbound;
  readonly #clock: Clock;
  readonly #owner = randomUUID();
  readonly #timeoutMs: number;
  readonly #retryForMs: number;
  readonly #keep: number;
  readonly #concurrency: number;
  readonly #leaseMs: number;
  readonly #pollMs: number;
  readonly #pageSize: number;
  readonly #idleMs: number;
  readonly #onError: (error: unknown) => void;
  readonly stats: HookStats = new Map();
  #running: Promise<void> | undefined;
  #stop = new AbortController();
  #nap: AbortController | undefined;
  #again = false;
  #soonest = Number.POSITIVE_INFINITY;
  /** Until then (ms) writes need no round: none of the stored hooks delivered when last looked. */
  #idleUntil = Number.NEGATIVE_INFINITY;
  /** Moved by each {@link wake}: a look that started before one may not conclude there is no hook. */
  #wakes = 0;

  constructor(options: HookWorkerOptions) {
    this.#store = options.store;
    this.#log = options.log;
    this.#outbound = options.outbound;
    this.#clock = options.clock ?? SYSTEM_CLOCK;
    this.#timeoutMs = options.timeoutMs ?? 10_000;
    this.#retryForMs = options.retryForMs ?? 24 * 3_600_000;
    this.#keep = options.keep ?? 200;
    this.#concurrency = options.concurrency ?? 8;
    this.#leaseMs = options.leaseMs ?? 120_000;
    this.#pollMs = options.pollMs ?? 5_000;
    this.#pageSize = options.pageSize ?? 100;
    this.#idleMs = Math.min(options.idleMs ?? 1_000, this.#pollMs);
    this.#onError = options.onError ?? (() => undefined);
  }

  /** Starts following the log (once). */
  start(): void {
    if (this.#running !== undefined) return;
    this.#stop = new AbortController();
    const unwatch = this.#log.watch(() => this.#written());
    this.#running = this.#loop().finally(unwatch);
  }

  /** Stops after the attempts under way end. */
  async stop(): Promise<void> {
    this.#stop.abort();
    this.#nap?.abort();
    await this.#running;
    this.#running = undefined;
  }

  /** A hook was made, or new entries may be in the log: look now rather than at the next poll. */
  wake(): void {
    this.#wakes++;
    this.#idleUntil = Number.NEGATIVE_INFINITY;
    this.#again = true;
    this.#nap?.abort();
  }

  /** New entries may be in the log: a round, unless no stored hook delivered a moment ago. */
  #written(): void {
    if (this.#clock.now() < this.#idleUntil) return;
    this.#again = true;
    this.#nap?.abort();
  }

  async #loop(): Promise<void> {
    while (!this.#stop.signal.aborted) {
      this.#again = false;
      try {
        await this.round();
      } catch (error) {
        this.#onError(error);
      }
      if (this.#again || this.#stop.signal.aborted) continue;
      const wait = Math.min(
        this.#pollMs,
        Math.max(0, this.#soonest - this.#clock.now()),
      );
      this.#nap = new AbortController();
      await this.#clock.sleep(wait, this.#nap.signal).catch(() => undefined);
      this.#nap = undefined;
    }
  }

  /** One round: claims the hooks with something due, and serves them side by side. */
  async round(): Promise<void> {
    const now = this.#clock.now();
    if (now < this.#idleUntil) return;
    this.#soonest = Number.POSITIVE_INFINITY;
    const wakes = this.#wakes;
    const head = await this.#log.head();
    const hooks = await this.#store.claim({
      owner: this.#owner,
      now,
      until: now + this.#leaseMs,
      head,
      limit: this.#concurrency,
    });
    // More hooks may be due than were claimed: another round at once.
    if (hooks.length >= this.#concurrency) this.#again = true;
    if (hooks.length === 0) {
      // Nothing claimed: when no hook delivers at all, the next writes need no round for a moment.
      const none = !(await this.#store.anyDeliverable());
      if (none && wakes === this.#wakes) this.#idleUntil = now + this.#idleMs;
      return;
    }
    await Promise.all(hooks.map((hook) => this.#serve(hook)));
  }

  /** Delivers a hook's events from its cursor until it is caught up, an attempt fails, or its lease runs low. */
  async #serve(hook: StoredHook): Promise<void> {
    const secret = hook.secret;
    if (secret === null) return;
    let progress: HookProgress = hook;
    const claimedAt = this.#clock.now();
    const save = async (release: boolean): Promise<boolean> =>
      this.#store.advance(hook.id, progress, { owner: this.#owner, release });
    for (;;) {
      const page = await this.#log.read(progress.cursor, this.#pageSize);
      if (page.reset) {
        await this.#record(hook, {
          eventId: page.head,
          type: 'missed',
          attempt: 1,
          status: null,
          error: `entries after ${progress.cursor} were pruned from the log before delivery`,
          durationMs: 0,
        });
        progress = { ...progress, cursor: page.head };
        await save(true);
        return;
      }
      if (page.entries.length === 0) {
        // Only entries hooks are not told of (or none): pass over them.
        if (page.through <= progress.cursor) break;
        progress = { ...progress, cursor: page.through };
        continue;
      }
      for (const entry of page.entries) {
        const payload = payloadFor(hook, entry);
        if (payload === null) {
          progress = { ...progress, cursor: entry.id };
          continue;
        }
        const result = await attemptDelivery(
          {
            outbound: this.#outbound,
            clock: this.#clock,
            timeoutMs: this.#timeoutMs,
          },
          { id: hook.id, url: hook.url, secret },
          payload,
        );
        const now = this.#clock.now();
        const attempt = progress.attempts + 1;
        await this.#record(hook, {
          eventId: entry.id,
          type: entry.type,
          attempt,
          ...result,
        });
        if (result.error === null) {
          this.#count('delivered');
          progress = {
            cursor: entry.id,
            attempts: 0,
            failingSince: null,
            nextAt: now,
            lastError: null,
          };
          // Kept at once: a crash now sends this event again only if this write was lost.
          if (!(await save(false))) return;
          continue;
        }
        this.#count('failed');
        const failingSince =
          progress.failingSince ?? new Date(now).toISOString();
        if (now - Date.parse(failingSince) >= this.#retryForMs) {
          this.#count('gave-up');
          await this.#record(hook, {
            eventId: entry.id,
            type: entry.type,
            attempt,
            status: null,
            error: `gave up after ${attempt} attempts`,
            durationMs: 0,
          });
          progress = {
            cursor: entry.id,
            attempts: 0,
            failingSince: null,
            nextAt: now,
            lastError: result.error,
          };
          continue;
        }
        const nextAt = now + backoffMs(attempt);
        progress = {
          cursor: progress.cursor,
          attempts: attempt,
          failingSince,
          nextAt,
          lastError: result.error,
        };
        this.#soonest = Math.min(this.#soonest, nextAt);
        await save(true);
        return;
      }
      // The lease must outlast the attempts still to come; what is left waits for the next round.
      if (this.#clock.now() - claimedAt > this.#leaseMs / 2) {
        this.#again = true;
        break;
      }
    }
    await save(true);
  }

  async #record(
    hook: StoredHook,
    delivery: Omit<StoredDelivery, 'hookId' | 'at'>,
  ): Promise<void> {
    await this.#store.record(
      [
        {
          ...delivery,
          hookId: hook.id,
          at: new Date(this.#clock.now()).toISOString(),
        },
      ],
      this.#keep,
    );
  }

  #count(outcome: string): void {
    this.stats.set(outcome, (this.stats.get(outcome) ?? 0) + 1);
  }
}
