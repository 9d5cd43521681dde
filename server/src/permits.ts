/** One request waiting for a permit. */
interface Waiter {
  readonly client: string | undefined;
  readonly grant: () => void;
}

/** How long and on what terms a request waits for a permit. */
export interface PermitWait {
  /** Gives up after this many milliseconds; absent: waits until granted, aborted or refused. */
  readonly timeoutMs?: number;
  /** Who asks: one permit per client at a time; absent: a request of no known client. */
  readonly client?: string;
  /** Gives up when this aborts (the client went away): the request leaves the queue at once. */
  readonly signal?: AbortSignal;
  /** The request was let in before (a later turn of its work): it waits even when the queue is full. */
  readonly admitted?: boolean;
}

/**
 * A few permits for work whose memory no cache budget covers (large request bodies, searches reading
 * configs from storage): at most `permits` holders at once, the others waiting in arrival order, at most
 * `maxWaiting` of them (a request beyond is refused at once rather than queued without bound). A waiter
 * leaves the queue when its time is up or its signal aborts, so a queue of abandoned requests cannot keep
 * live ones out.
 *
 * One client holds at most one permit: its next request waits, in arrival order like any other, until
 * its first is done, and others may go ahead of it meanwhile. So a client cannot take every permit by
 * sending several slow requests at once.
 */
export class Permits {
  readonly #waiting: Waiter[] = [];
  /** The clients holding a permit. */
  readonly #holders = new Set<string>();
  #available: number;

  constructor(
    /** Holders at once (at least one). */
    readonly permits: number,
    /** Waiters at once; a request beyond them is refused without waiting. */
    readonly maxWaiting = Number.POSITIVE_INFINITY,
  ) {
    this.#available = Math.max(1, permits);
  }

  /**
   * Waits for a permit; call the returned function once the work is done (a second call gives nothing
   * back). `undefined`: no permit (the signal had aborted, the wait timed out or was aborted, or the queue
   * was full); the caller answers 503.
   */
  async acquire(wait: PermitWait = {}): Promise<(() => void) | undefined> {
    const { client, signal } = wait;
    // A request whose client is gone takes no permit, free or not: nobody reads what it would do.
    if (signal?.aborted === true) return undefined;
    if (this.#mayTake(client)) {
      this.#take(client);
    } else if (
      wait.admitted !== true &&
      this.#waiting.length >= this.maxWaiting
    ) {
      return undefined;
    } else if (!(await this.#wait(wait))) {
      return undefined;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#available++;
      if (client !== undefined) this.#holders.delete(client);
      this.#grantWaiting();
    };
  }

  /** Requests waiting for a permit (for tests and metrics). */
  get waiting(): number {
    return this.#waiting.length;
  }

  /** Queues the request; resolves `true` once granted, `false` when it gave up (and left the queue). */
  #wait({ timeoutMs, client, signal }: PermitWait): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      const leave = () => {
        const at = this.#waiting.indexOf(waiter);
        if (at >= 0) this.#waiting.splice(at, 1);
        done();
        resolve(false);
      };
      const timer =
        timeoutMs === undefined ? undefined : setTimeout(leave, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', leave);
      };
      const waiter: Waiter = {
        client,
        grant: () => {
          done();
          resolve(true);
        },
      };
      signal?.addEventListener('abort', leave, { once: true });
      this.#waiting.push(waiter);
    });
  }

  #mayTake(client: string | undefined): boolean {
    return (
      this.#available > 0 &&
      (client === undefined || !this.#holders.has(client))
    );
  }

  #take(client: string | undefined): void {
    this.#available--;
    if (client !== undefined) this.#holders.add(client);
  }

  /** Hands free permits to the first waiters whose clients hold none. */
  #grantWaiting(): void {
    while (this.#available > 0) {
      const at = this.#waiting.findIndex((w) => this.#mayTake(w.client));
      if (at < 0) return;
      const [waiter] = this.#waiting.splice(at, 1);
      if (waiter === undefined) return;
      this.#take(waiter.client);
      waiter.grant();
    }
  }
}
