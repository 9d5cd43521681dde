/**
 * Replays the outbox against the remote store: one pass at a time in this tab, one drainer at a time
 * across tabs (Web Locks where available), oldest entry first, and an entry is deleted only after the
 * server answered 2xx and only if it was not replaced meanwhile (at-least-once delivery).
 */
import type { ConfigStore, RemoteOperation } from '../config-store.js';
import type { Outbox, OutboxEntry } from '../indexeddb/outbox.js';
import { RemoteStoreError } from '../remote/remote-store-error.js';
import { Backoff } from '../backoff.js';
import type { BackoffOptions } from '../backoff.js';

/** What the queue tells its owner. */
export interface SyncQueueEvents {
  /** A write failed for the first time (not on every retry), or was set aside for good. */
  onFailure(op: RemoteOperation, name: string, error: unknown): void;
  /** Something about the queue changed (delivery, failure, pause): refresh the status. */
  onChange(): void;
}

/** Options of {@link SyncQueue}. */
export interface SyncQueueOptions {
  outbox: Outbox;
  remote: ConfigStore;
  events: SyncQueueEvents;
  backoff?: BackoffOptions;
  /** Web Locks name shared by the tabs of an origin (default `linkconfig-sync`). */
  lockName?: string;
}

type Outcome = 'delivered' | 'retry' | 'paused' | 'dead';

/** The background sync queue of a hybrid store. */
export class SyncQueue {
  /** Whether 401/403 paused delivery. */
  paused = false;
  /** Whether the last remote call got an answer (`null` before the first). */
  reachable: boolean | null = null;
  lastError: unknown = null;
  private readonly backoff: Backoff;
  private readonly reported = new Set<string>();
  private running: Promise<void> | null = null;
  private again = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private closed = false;

  constructor(private readonly options: SyncQueueOptions) {
    this.backoff = new Backoff(options.backoff);
  }

  /** Starts a pass now (or right after the current one); never rejects. */
  drain(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.clearTimer();
    const run = async () => {
      do {
        this.again = false;
        await this.withLock(() => this.pass());
      } while (this.again && !this.closed && !this.paused);
    };
    this.running = run()
      .catch((error: unknown) => {
        // A local failure reading the outbox: try again later rather than give up.
        this.lastError = error;
        this.schedule(this.backoff.next());
      })
      .finally(() => {
        this.running = null;
        this.options.events.onChange();
      });
    return this.running;
  }

  /** Whether a retry is scheduled. */
  get waiting(): boolean {
    return this.timer !== null;
  }

  /** The browser says it is online again: forget the backoff and try at once. */
  online(): void {
    this.backoff.reset();
    void this.drain();
  }

  /** Resumes a queue paused by 401/403. */
  resume(): void {
    this.paused = false;
    this.backoff.reset();
    void this.drain();
  }

  /** A remote call of the store succeeded: the server is reachable, so deliver what waits. */
  remoteSucceeded(): void {
    this.reachable = true;
    const wasPaused = this.paused;
    this.paused = false;
    if (wasPaused || this.timer !== null) {
      this.backoff.reset();
      void this.drain();
    }
  }

  close(): void {
    this.closed = true;
    this.clearTimer();
  }

  private async withLock(work: () => Promise<void>): Promise<void> {
    const locks = (globalThis as { navigator?: { locks?: LockManager } })
      .navigator?.locks;
    if (!locks) return work();
    // Waiting (not ifAvailable): the next tab re-reads the outbox after this one, so nothing is missed,
    // and entries already delivered are gone by then, so nothing is sent twice.
    await locks.request(this.options.lockName ?? 'linkconfig-sync', () =>
      work(),
    );
  }

  private async pass(): Promise<void> {
    for (const entry of await this.options.outbox.all()) {
      if (this.closed || this.paused) return;
      const outcome = await this.deliver(entry);
      this.options.events.onChange();
      if (outcome === 'retry' || outcome === 'paused') return;
    }
    this.backoff.reset();
  }

  private async deliver(entry: OutboxEntry): Promise<Outcome> {
    const { outbox, remote } = this.options;
    try {
      if (entry.op === 'save')
        await remote.save(entry.name, entry.config ?? { allLinks: {} });
      else await remote.remove(entry.name);
    } catch (error) {
      return this.failed(entry, error);
    }
    this.reachable = true;
    this.reported.delete(entry.token);
    // Deleted only if still the same write: a newer save made meanwhile stays queued.
    await outbox.ackIfCurrent(entry.name, entry.token);
    return 'delivered';
  }

  private async failed(entry: OutboxEntry, error: unknown): Promise<Outcome> {
    const { outbox, events } = this.options;
    this.lastError = error;
    const remoteError = error instanceof RemoteStoreError ? error : null;
    this.reachable = remoteError?.kind === 'http';
    const firstTime = !this.reported.has(entry.token);
    this.reported.add(entry.token);
    if (remoteError?.unauthorized) {
      this.paused = true;
      if (firstTime) events.onFailure(entry.op, entry.name, error);
      return 'paused';
    }
    if (remoteError && !remoteError.retryable) {
      await outbox.deadLetter({
        ...entry,
        status: remoteError.status,
        error: remoteError.message,
        failedAt: new Date().toISOString(),
      });
      this.reported.delete(entry.token);
      events.onFailure(entry.op, entry.name, error);
      return 'dead';
    }
    if (firstTime) events.onFailure(entry.op, entry.name, error);
    this.schedule(this.backoff.next(remoteError?.retryAfterMs));
    return 'retry';
  }

  private schedule(delayMs: number): void {
    if (this.closed) return;
    this.clearTimer();
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.drain();
    }, delayMs);
  }

  private clearTimer(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}
