/**
 * The status a UI shows for a hybrid store, published to subscribers. It is never read back from the
 * database: the outbox tells what each of its transactions changed (and what each full read found),
 * and the queue tells when its own state changed.
 */
import type { MergeReport } from './auto-merge.js';
import type { FeedState } from '../remote/change-feed.js';
import type { NameSync, SyncChange } from '../indexeddb/outbox-types.js';
import { settled } from '../indexeddb/sync-facts.js';
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
  /** Whether delivery waits for valid credentials (401). */
  paused: boolean;
  /** Whether live updates from the server's change feed are connected. */
  live: LiveState;
  /**
   * What waits per config name (a pending write, a dead letter, a conflict, each with since when);
   * names with nothing waiting are absent. The counts above are counted from it.
   */
  names: Readonly<Record<string, Readonly<NameSync>>>;
  /**
   * The latest write that met a newer server version and was merged with it without asking (H21):
   * the name, when, and how many changes each side brought; `null` before the first.
   */
  lastMerge: {
    name: string;
    at: string;
    appliedRemote: number;
    keptLocal: number;
  } | null;
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
    names: {},
    lastMerge: null,
  };
  readonly #listeners = new Set<(status: HybridStatus) => void>();

  constructor(private readonly queue: SyncQueue) {}

  get current(): HybridStatus {
    return this.#status;
  }

  /** Calls `listener` on every change; returns the unsubscribe function. */
  subscribe(listener: (status: HybridStatus) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Takes in what an outbox operation changed. */
  apply(change: SyncChange): void {
    const names: Record<string, NameSync> = { ...this.#status.names };
    if (change.kind === 'name') {
      if (settled(change.facts)) delete names[change.name];
      else names[change.name] = change.facts;
    } else {
      const { fact, facts } = change;
      for (const [name, now] of Object.entries(names)) {
        if (facts.has(name) || now[fact] === undefined) continue;
        const { [fact]: _gone, ...rest } = now;
        if (settled(rest)) delete names[name];
        else names[name] = rest;
      }
      for (const [name, value] of facts) {
        const now = names[name];
        if (now?.[fact] !== undefined && sameFact(now[fact], value)) continue;
        names[name] = { ...now, [fact]: value };
      }
    }
    const counts = { pending: 0, deadLetters: 0, conflicts: 0 };
    for (const facts of Object.values(names)) {
      if (facts.pending) counts.pending++;
      if (facts.deadLetter) counts.deadLetters++;
      if (facts.conflict) counts.conflicts++;
    }
    this.#publish({ ...this.#status, ...counts, names });
  }

  /** The queue's state changed (delivery, failure, pause, reachability). */
  queueChanged(): void {
    const { queue } = this;
    this.#publish({
      ...this.#status,
      lastError: queue.lastError === null ? null : describe(queue.lastError),
      remoteReachable: queue.reachable,
      paused: queue.paused,
    });
  }

  /** A write was merged with a newer server version without asking. */
  merged(name: string, report: MergeReport): void {
    this.#publish({
      ...this.#status,
      lastMerge: {
        name,
        at: new Date().toISOString(),
        appliedRemote: report.appliedRemote.length,
        keptLocal: report.keptLocal.length,
      },
    });
  }

  /** Reading the sync state failed. */
  failed(error: unknown): void {
    this.#publish({ ...this.#status, lastError: describe(error) });
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

/** Whether two facts of a kind say the same. */
function sameFact(a: object, b: object | undefined): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** An error in words. */
export function describe(error: unknown): string {
  if (error === null || error === undefined) return 'unknown error';
  return error instanceof Error ? error.message : String(error);
}
