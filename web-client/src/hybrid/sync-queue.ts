/**
 * Replays the outbox against the server: one pass at a time in this tab, one drainer at a time across
 * tabs (Web Locks where available), oldest entry first. An entry leaves the outbox only after the server
 * answered 2xx for it and only if it was not replaced meanwhile (at-least-once delivery), or when it is
 * set aside as a dead letter or a conflict. The queue owns its state (pause, last error, the
 * Retry-After hold) and records whether the server answered in the store's {@link Reachability}; the
 * store reports the results of its own remote calls through methods.
 */
import { Backoff } from '../backoff.js';
import type { BackoffOptions } from '../backoff.js';
import type { RemoteOperation } from '../config-store.js';
import { Reachability } from '../reachability.js';
import type { Outbox, OutboxEntry } from '../indexeddb/outbox.js';
import { RemoteStoreError } from '../remote/remote-store-error.js';
import { cleanMerge } from './auto-merge.js';
import type { MergeReport } from './auto-merge.js';
import { alreadyApplied } from './delivery.js';
import type { Delivery } from './delivery.js';

/** What the queue tells its owner. */
export interface SyncQueueEvents {
  /** A write failed for the first time (not on every retry), was set aside, or met a conflict. */
  onFailure(op: RemoteOperation, name: string, error: unknown): void;
  /** Something about the queue changed (delivery, failure, pause): refresh the status. */
  onChange(): void;
  /** A write met a newer server version and now waits in the conflicts. */
  onConflict(name: string): void;
  /** A write met a newer server version and was merged with it cleanly (H21); the merge is on its way. */
  onMerged(name: string, report: MergeReport): void;
}

/** Options of {@link SyncQueue}. */
export interface SyncQueueOptions {
  outbox: Outbox;
  delivery: Delivery;
  events: SyncQueueEvents;
  /** Where whether the server answered is recorded (shared with the app's own calls); default: its own. */
  reachability?: Reachability;
  backoff?: BackoffOptions;
  /** Replaces a pending write by its clean merge with the server's version (default: the outbox's). */
  rebase?: Outbox['rebase'];
  /** Web Locks name shared by the tabs of an origin (default `linkconfig-sync`). */
  lockName?: string;
}

type Outcome = 'delivered' | 'retry' | 'paused' | 'set-aside';

/** How often one delivery merges with a newer server version before it waits for the next pass. */
const MERGES_PER_DELIVERY = 3;

/** The background sync queue of a hybrid store. */
export class SyncQueue {
  #paused = false;
  #lastError: unknown = null;
  /** No request before this time (ms since the epoch): the server's Retry-After. */
  #holdUntil = 0;
  readonly #backoff: Backoff;
  readonly #reach: Reachability;
  readonly #reported = new Set<string>();
  /** The ETag each name got from our latest delivered save, to recognise our own writes in the feed. */
  readonly #written = new Map<string, string>();
  #running: Promise<void> | null = null;
  #again = false;
  #timer: ReturnType<typeof setTimeout> | null = null;
  /** When the scheduled retry is due (ms since the epoch). */
  #timerDue = 0;
  #closed = false;

  constructor(private readonly options: SyncQueueOptions) {
    this.#backoff = new Backoff(options.backoff);
    this.#reach = options.reachability ?? new Reachability();
  }

  /** Whether a 401 paused delivery (a 403 sets its write aside as a dead letter instead). */
  get paused(): boolean {
    return this.#paused;
  }

  /** Whether the last remote call got an answer (`null` before the first). */
  get reachable(): boolean | null {
    return this.#reach.current;
  }

  /**
   * The last remote failure that still stands (`null` when none, H20): a delivery that gets through
   * clears it, and so does any other successful call while no delivery is under way or waits for a
   * retry.
   */
  get lastError(): unknown {
    return this.#lastError;
  }

  /** Whether `etag` is what the server gave our latest delivered save of `name`. */
  wrote(name: string, etag: string): boolean {
    return this.#written.get(name) === etag;
  }

  /** Whether a retry is scheduled. */
  get waiting(): boolean {
    return this.#timer !== null;
  }

  /** How long the server asked us to wait (Retry-After) from now, in ms; 0 when requests may go. */
  get holdOffMs(): number {
    return Math.max(0, this.#holdUntil - Date.now());
  }

  /**
   * Starts a pass now (or right after the current one). While a Retry-After holds, nothing is sent:
   * the pass starts when the wait is over. Never rejects.
   */
  drain(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    if (this.#running) {
      this.#again = true;
      return this.#running;
    }
    const hold = this.holdOffMs;
    if (hold > 0) {
      this.#schedule(hold, { keepLater: true });
      return Promise.resolve();
    }
    this.#clearTimer();
    const run = async () => {
      do {
        this.#again = false;
        await this.#withLock(() => this.#pass());
      } while (
        this.#again &&
        !this.#closed &&
        !this.#paused &&
        this.holdOffMs === 0
      );
    };
    this.#running = run()
      .catch((error: unknown) => {
        // A local failure reading the outbox: try again later rather than give up.
        this.#lastError = error;
        this.#schedule(this.#backoff.next());
      })
      .finally(() => {
        this.#running = null;
        this.options.events.onChange();
      });
    return this.#running;
  }

  /** The browser says it is online again: forget the backoff and try at once (Retry-After still holds). */
  online(): void {
    this.#backoff.reset();
    void this.drain();
  }

  /** Resumes a queue paused by a 401. */
  resume(): void {
    this.#paused = false;
    this.#backoff.reset();
    void this.drain();
  }

  /** A remote call of the store succeeded: the server is reachable, so deliver what waits. */
  remoteSucceeded(): void {
    this.#reach.record(true);
    const wasPaused = this.#paused;
    this.#paused = false;
    if (wasPaused || this.#timer !== null) {
      // A delivery waits: its failure stands until it gets through.
      this.#backoff.reset();
      void this.drain();
    } else if (this.#running === null) this.#lastError = null;
  }

  /** A remote call of the store failed: note reachability, the error and any Retry-After. */
  remoteFailed(error: unknown): void {
    this.#lastError = error;
    this.#reach.record(error instanceof RemoteStoreError && error.answered);
    this.#holdFor(error);
  }

  /** Stops the queue: no pass or retry starts afterwards. */
  close(): void {
    this.#closed = true;
    this.#clearTimer();
  }

  async #withLock(work: () => Promise<void>): Promise<void> {
    const locks = (globalThis as { navigator?: { locks?: LockManager } })
      .navigator?.locks;
    if (!locks) return work();
    // Waiting (not ifAvailable): the next tab re-reads the outbox after this one, so nothing is missed,
    // and entries already delivered are gone by then, so nothing is sent twice.
    await locks.request(this.options.lockName ?? 'linkconfig-sync', () =>
      work(),
    );
  }

  async #pass(): Promise<void> {
    for (const entry of await this.options.outbox.all()) {
      if (this.#closed || this.#paused || this.holdOffMs > 0) return;
      const outcome = await this.#deliver(entry);
      this.options.events.onChange();
      if (outcome === 'retry' || outcome === 'paused') return;
    }
    this.#backoff.reset();
  }

  async #deliver(entry: OutboxEntry, merges = 0): Promise<Outcome> {
    let etag: string | undefined;
    try {
      ({ etag } = await this.options.delivery.send(entry));
    } catch (error) {
      return this.#failed(entry, error, merges);
    }
    this.#reach.record(true);
    this.#lastError = null;
    this.#reported.delete(entry.token);
    // Noted before the acknowledgement is stored: the feed may bring this write back before that.
    this.#remember(entry.name, etag);
    await this.options.outbox.acknowledge(entry, etag);
    return 'delivered';
  }

  async #failed(
    entry: OutboxEntry,
    error: unknown,
    merges = 0,
  ): Promise<Outcome> {
    const { outbox, events } = this.options;
    this.remoteFailed(error);
    const remoteError = error instanceof RemoteStoreError ? error : null;
    const firstTime = !this.#reported.has(entry.token);
    this.#reported.add(entry.token);
    if (remoteError?.kind === 'conflict')
      return this.#conflict(entry, error, merges);
    if (remoteError?.unauthorized) {
      this.#paused = true;
      if (firstTime) events.onFailure(entry.op, entry.name, error);
      return 'paused';
    }
    if (remoteError && !remoteError.retryable) {
      await outbox.deadLetter({
        ...entry,
        status: remoteError.status,
        // A 403 is no pause: other names may well be writable with this key; this one never will be.
        error: remoteError.forbidden
          ? `this key may not write ${entry.name}`
          : remoteError.message,
        failedAt: new Date().toISOString(),
      });
      this.#reported.delete(entry.token);
      events.onFailure(entry.op, entry.name, error);
      return 'set-aside';
    }
    if (firstTime) events.onFailure(entry.op, entry.name, error);
    this.#schedule(this.#backoff.next(remoteError?.retryAfterMs));
    return 'retry';
  }

  /**
   * 412: fetch the server's side; merge the write with it when that is clean (H21) and send the merge,
   * else keep the local write and set both aside as a conflict.
   */
  async #conflict(
    entry: OutboxEntry,
    error: unknown,
    merges: number,
  ): Promise<Outcome> {
    const { outbox, delivery, events } = this.options;
    let remote;
    try {
      remote = await delivery.current(entry.name);
    } catch (readError) {
      // Without the server's side there is nothing to decide on yet: retry the write later.
      this.#reported.delete(entry.token);
      return this.#failed(entry, readError);
    }
    this.#reach.record(true);
    this.#reported.delete(entry.token);
    if (alreadyApplied(entry, remote)) {
      // The server holds what this write would make it hold: an earlier delivery of it got through
      // and its answer was lost (a tab closed, a timeout). Delivering twice is harmless, so this is
      // the acknowledgement, not a conflict.
      const etag = remote.etag ?? undefined;
      this.#lastError = null;
      this.#remember(entry.name, etag);
      await outbox.acknowledge(entry, etag);
      return 'delivered';
    }
    const merge =
      merges < MERGES_PER_DELIVERY ? cleanMerge(entry, remote) : null;
    if (merge !== null) {
      const rebase = this.options.rebase ?? outbox.rebase.bind(outbox);
      if (!(await rebase(entry, merge.merged, remote))) return 'set-aside';
      const { appliedRemote, keptLocal } = merge;
      events.onMerged(entry.name, { appliedRemote, keptLocal });
      const next = await outbox.get(entry.name);
      // Sent at once, over the server's version; a removal on both sides leaves nothing to send.
      return next?.token === entry.token
        ? this.#deliver(next, merges + 1)
        : 'delivered';
    }
    if (await outbox.setConflict(entry, remote)) {
      events.onFailure(entry.op, entry.name, error);
      events.onConflict(entry.name);
    }
    return 'set-aside';
  }

  #remember(name: string, etag: string | undefined): void {
    this.#written.delete(name);
    if (etag === undefined) return;
    this.#written.set(name, etag);
    // Bounded: only recent writes can still come back through the feed.
    if (this.#written.size > 1000) {
      const oldest = this.#written.keys().next().value;
      if (oldest !== undefined) this.#written.delete(oldest);
    }
  }

  /** Starts (or extends) the Retry-After hold of a failure. */
  #holdFor(error: unknown): void {
    const retryAfterMs =
      error instanceof RemoteStoreError ? error.retryAfterMs : undefined;
    if (retryAfterMs === undefined) return;
    this.#holdUntil = Math.max(this.#holdUntil, Date.now() + retryAfterMs);
    // A retry that was due earlier must not run into the hold.
    if (this.#timer !== null) this.#schedule(retryAfterMs, { keepLater: true });
  }

  #schedule(delayMs: number, options: { keepLater?: boolean } = {}): void {
    if (this.#closed) return;
    const due = Date.now() + delayMs;
    if (options.keepLater && this.#timer !== null && this.#timerDue >= due)
      return;
    this.#clearTimer();
    this.#timerDue = due;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.drain();
    }, delayMs);
  }

  #clearTimer(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }
}
