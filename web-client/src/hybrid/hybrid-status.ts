/**
 * The status a UI shows for a hybrid store, recomputed from the outbox and the queue whenever something
 * changes, and published to subscribers.
 */
import type { Outbox } from './outbox.js';
import type { FeedState } from '../remote/change-feed.js';
import type { SyncQueue } from './sync-queue.js';

/** Live updates: `off` when not asked for (or the remote has no change feed), else the feed's state. */
export type LiveState = 'off' | FeedState;

/** What a UI can show about a hybrid store. */
export interface HybridStatus {
  /** Writes waiting for the server. */
  pending: number;
  /** Writes the server refused for good; see `deadLetters()`. */
  deadLetters: number;
  /** Writes that met a newer version on the server and wait for a decision; see `conflicts()`. */
  conflicts: number;
  /** The last remote failure, in words. */
  lastError: string | null;
  /** Whether the server answered the last call (`null` before the first). */
  remoteReachable: boolean | null;
  /** Whether delivery waits for valid credentials (401/403). */
  paused: boolean;
  /** Whether live updates from the server's change feed are connected. */
  live: LiveState;
}

/** Holds the current status and its subscribers. */
export class StatusBoard {
  #status: HybridStatus = {
    pending: 0,
    deadLetters: 0,
    conflicts: 0,
    lastError: null,
    remoteReachable: null,
    paused: false,
    live: 'off',
  };
  readonly #listeners = new Set<(status: HybridStatus) => void>();

  constructor(private readonly sources: { outbox: Outbox; queue: SyncQueue }) {}

  get current(): HybridStatus {
    return this.#status;
  }

  /** Calls `listener` on every change; returns the unsubscribe function. */
  subscribe(listener: (status: HybridStatus) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Recomputes the status from the outbox and the queue; never rejects. */
  async refresh(): Promise<void> {
    const { outbox, queue } = this.sources;
    try {
      const [pending, dead, conflicts] = await Promise.all([
        outbox.all(),
        outbox.deadLetters(),
        outbox.conflicts(),
      ]);
      this.#publish({
        ...this.#status,
        pending: pending.length,
        deadLetters: dead.length,
        conflicts: conflicts.length,
        lastError: queue.lastError === null ? null : describe(queue.lastError),
        remoteReachable: queue.reachable,
        paused: queue.paused,
      });
    } catch (error) {
      this.#publish({ ...this.#status, lastError: describe(error) });
    }
  }

  /** Records the live-update state. */
  setLive(live: LiveState): void {
    if (this.#status.live !== live) this.#publish({ ...this.#status, live });
  }

  #publish(next: HybridStatus): void {
    this.#status = next;
    for (const listener of this.#listeners) {
      try {
        listener(next);
      } catch {
        // A throwing listener must not keep the others from hearing about it.
      }
    }
  }
}

/** An error in words. */
export function describe(error: unknown): string {
  if (error === null || error === undefined) return 'unknown error';
  return error instanceof Error ? error.message : String(error);
}
