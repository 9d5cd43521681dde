/**
 * Results of checks stored together: every result waits at most `windowMs` (or until `max` are waiting)
 * and they are written in one call, one transaction. On SQLite a commit is a synchronous fsync on the
 * event loop: one per check held every request of the server up for it (10,000 links: p99 of reads
 * 69 → 407 ms, and the checker itself fell behind its limits).
 */
import type { LinkHealthRecord } from '@linkconfig/shared';
import type { Clock } from '../clock.js';
import type { LinkHealthStore } from '../storage/link-health-store.js';

interface Waiting {
  readonly record: LinkHealthRecord;
  readonly resolve: (stored: boolean) => void;
  readonly reject: (error: unknown) => void;
}

/** Batches the results of one checker's leases. */
export class ResultBatch {
  readonly #store: LinkHealthStore;
  readonly #owner: string;
  readonly #clock: Clock;
  readonly #windowMs: number;
  readonly #max: number;
  #waiting: Waiting[] = [];
  #timer: AbortController | undefined;
  #closing = false;

  constructor(
    store: LinkHealthStore,
    lease: { readonly owner: string; readonly clock: Clock },
    limits: { readonly windowMs: number; readonly max: number } = {
      windowMs: 250,
      max: 128,
    },
  ) {
    this.#store = store;
    this.#owner = lease.owner;
    this.#clock = lease.clock;
    this.#windowMs = limits.windowMs;
    this.#max = limits.max;
  }

  /** Stores `record` with the next batch; resolves whether it was stored (its lease still held). */
  store(record: LinkHealthRecord): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.#waiting.push({ record, resolve, reject });
      if (this.#closing || this.#waiting.length >= this.#max) {
        void this.#flush();
      } else if (this.#timer === undefined) {
        const timer = new AbortController();
        this.#timer = timer;
        this.#clock.sleep(this.#windowMs, timer.signal).then(
          () => this.#flush(),
          () => undefined,
        );
      }
    });
  }

  /** Writes what waits now, and from now on every result at once (the checker is stopping). */
  async close(): Promise<void> {
    this.#closing = true;
    await this.#flush();
  }

  async #flush(): Promise<void> {
    this.#timer?.abort();
    this.#timer = undefined;
    const batch = this.#waiting;
    this.#waiting = [];
    if (batch.length === 0) return;
    try {
      const stored = await this.#store.complete(
        batch.map((w) => w.record),
        this.#owner,
      );
      for (const w of batch) w.resolve(stored.has(w.record.url));
    } catch (error) {
      for (const w of batch) w.reject(error);
    }
  }
}
