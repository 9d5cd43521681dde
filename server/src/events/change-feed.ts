import { feedItems } from './feed-items.js';
import { REFUSALS } from './feed-options.js';
import type {
  ChangeFeedOptions,
  ChangeSource,
  Refusal,
  StreamCut,
} from './feed-options.js';
import type { FeedItem, Subscriber } from './subscriber.js';

const RETRY_MS = 1000;

/**
 * The change feed of one server: one reader of the repository's change history that hands every
 * committed change, in id order, to every open stream.
 *
 * Work per change does not grow with the number of streams beyond handing each one the same item (whose
 * SSE bytes are encoded once). A stream that resumes from an id first catches up from the history by
 * itself, page by page at its consumer's pace, and joins the live dispatch only once it has read up to
 * what was dispatched, so no change is skipped or sent twice. The feed reads only while streams are
 * open.
 */
export class ChangeFeed {
  readonly #source: ChangeSource;
  readonly #maxStreams: number;
  readonly #heartbeatMs: number;
  readonly #pageSize: number;
  readonly #onError: (error: unknown) => void;
  readonly #onCut: (cut: StreamCut) => void;
  /** Bytes a consumer may lag behind; read by the subscriber factories. */
  readonly bufferBytes: number;
  /** Every open stream, live or catching up (the cap counts both), with its number. */
  readonly #open = new Map<Subscriber, number>();
  #streams = 0;
  /** Streams that take changes from the dispatch. */
  readonly #live = new Set<Subscriber>();
  /** The last id dispatched; known once {@link #ready} resolves. */
  #position = 0;
  #ready: Promise<void> | undefined;
  /** A head read for {@link startingPoint} while no stream is open, shared by concurrent callers. */
  #idleHead: Promise<number | Refusal> | undefined;
  /** Increments on every stop, so reads of an earlier run leave the state alone. */
  #run = 0;
  #unwatch: (() => void) | undefined;
  #heartbeat: ReturnType<typeof setInterval> | undefined;
  #draining = false;
  #again = false;
  #retry: ReturnType<typeof setTimeout> | undefined;
  #closed = false;

  constructor(options: ChangeFeedOptions) {
    this.#source = options.source;
    this.#maxStreams = options.maxStreams ?? 1000;
    this.#heartbeatMs = options.heartbeatMs ?? 15_000;
    this.bufferBytes = options.bufferBytes ?? 256 * 1024;
    this.#pageSize = options.pageSize ?? 500;
    this.#onError = options.onError ?? (() => undefined);
    this.#onCut = options.onCut ?? (() => undefined);
  }

  /** Number of open streams. */
  get openStreams(): number {
    return this.#open.size;
  }

  /**
   * Whether a stream may open now: `null` when it may, else why not. Callers check before building a
   * stream, so a refused request costs nothing.
   */
  refusal(): Refusal | null {
    if (this.#closed) return REFUSALS.closed;
    return this.#open.size >= this.#maxStreams ? REFUSALS.full : null;
  }

  /**
   * Opens a stream for `subscriber`: every change after `lastEventId` (without it, every change after
   * the head read this join may start, see {@link startingPoint}), then live changes, until
   * {@link leave}. Returns the refusal instead when it may not open.
   */
  join(subscriber: Subscriber, lastEventId?: number): Refusal | null {
    const refused = this.refusal();
    if (refused !== null) return refused;
    this.#open.set(subscriber, ++this.#streams);
    this.#start();
    this.#follow(subscriber, lastEventId);
    return null;
  }

  /** Catches `subscriber` up from the history (then it is live); a failed read drops it. */
  #follow(subscriber: Subscriber, lastEventId?: number): void {
    void this.#catchUp(subscriber, lastEventId).catch((error: unknown) => {
      this.#onError(error);
      this.#drop(subscriber, 'overflow');
    });
  }

  /**
   * Where a stream "from now on" starts: an id such that every change committed once this resolves has
   * a higher one (or why no stream may open). Routes wait for it before they answer and join with it, so
   * a client that holds its answer gets every change made after that; a join without an id starts only
   * when the head read it begins returns, which on PostgreSQL can fall after such a change. While
   * streams are open it is the dispatch position, without a read; otherwise concurrent callers share
   * one read of the head. A failed read is reported to `onError` and answered `unavailable`.
   */
  async startingPoint(): Promise<number | Refusal> {
    const refused = this.refusal();
    if (refused !== null) return refused;
    const ready = this.#ready;
    if (ready !== undefined) {
      // A failed read of the running feed is reported where it was made (#start).
      const read = await ready.then(
        () => true,
        () => false,
      );
      if (!read) return REFUSALS.unavailable;
      if (this.#ready === ready) return this.#position;
    }
    this.#idleHead ??= this.#source
      .head()
      .catch((error: unknown): Refusal => {
        this.#onError(error);
        return REFUSALS.unavailable;
      })
      .finally(() => {
        this.#idleHead = undefined;
      });
    return this.#idleHead;
  }

  /** Closes a stream's membership (its consumer went away). */
  leave(subscriber: Subscriber): void {
    this.#open.delete(subscriber);
    this.#live.delete(subscriber);
    if (this.#open.size === 0) this.#stop();
  }

  /** Ends every stream and refuses new ones; for graceful shutdown (open streams would block it). */
  close(): void {
    this.#closed = true;
    for (const subscriber of [...this.#open.keys()])
      this.#drop(subscriber, 'shutdown');
    this.#stop();
  }

  /** Watches the source, starts heartbeats and reads the head when the first stream opens. */
  #start(): void {
    if (this.#unwatch === undefined) {
      this.#unwatch = this.#source.watch(() => this.#wake());
      this.#heartbeat = setInterval(() => {
        for (const subscriber of this.#open.keys()) subscriber.heartbeat();
      }, this.#heartbeatMs);
      this.#heartbeat.unref();
    }
    if (this.#ready === undefined) {
      const run = this.#run;
      const ready = this.#source.head().then((head) => {
        if (run === this.#run) this.#position = head;
      });
      this.#ready = ready;
      // A failed first read is reported; the streams waiting on it are dropped (they reconnect), and
      // the next stream to open tries again.
      ready.catch((error: unknown) => {
        this.#onError(error);
        if (this.#ready === ready) this.#ready = undefined;
      });
    }
  }

  #stop(): void {
    this.#run++;
    this.#ready = undefined;
    this.#unwatch?.();
    this.#unwatch = undefined;
    clearInterval(this.#heartbeat);
    clearTimeout(this.#retry);
    this.#retry = undefined;
  }

  #wake(): void {
    void this.#drain();
  }

  /** Reads what was committed after {@link #position} and dispatches it; one reader at a time. */
  async #drain(): Promise<void> {
    if (this.#draining) {
      this.#again = true;
      return;
    }
    const run = this.#run;
    const ready = this.#ready;
    // Nothing can be live before the head is known; the streams that wait for it read the history.
    if (ready === undefined) return;
    this.#draining = true;
    try {
      await ready;
      do {
        this.#again = false;
        let more = true;
        while (more && run === this.#run) {
          const page = await this.#source.readLog({
            after: this.#position,
            limit: this.#pageSize,
          });
          if (run !== this.#run) return;
          if (page.reset) {
            // The history moved past what was dispatched (a long outage of the notifications): every
            // live stream must re-list, then it follows from the head.
            this.#position = page.head;
            for (const subscriber of this.#live) {
              subscriber.cursor = page.head;
              if (!subscriber.reset(page.head))
                this.#drop(subscriber, 'overflow');
            }
            more = false;
          } else {
            // Streams keeping up when the page came: if it overfills one (a burst, say from another
            // instance), that one goes back to catching up at its own pace instead of being cut.
            const keeping = new Set(
              [...this.#live].filter(
                (subscriber) => subscriber.backlog() <= this.bufferBytes / 2,
              ),
            );
            for (const item of feedItems(page)) this.#dispatch(item, keeping);
            // Entries of the log the feed does not show are passed over.
            this.#position = Math.max(this.#position, page.through);
            more = page.changes.length + page.events.length === this.#pageSize;
          }
        }
      } while (this.#again && run === this.#run);
    } catch (error) {
      this.#onError(error);
      if (run === this.#run && this.#retry === undefined) {
        this.#retry = setTimeout(() => {
          this.#retry = undefined;
          this.#wake();
        }, RETRY_MS);
        this.#retry.unref();
      }
    } finally {
      this.#draining = false;
      // The feed restarted while this read was out: a wake meant for the new run must not be lost.
      if (run !== this.#run && this.#again) {
        this.#again = false;
        this.#wake();
      }
    }
  }

  #dispatch(item: FeedItem, keeping: ReadonlySet<Subscriber>): void {
    this.#position = item.id;
    for (const subscriber of this.#live) {
      if (item.id <= subscriber.cursor) continue;
      subscriber.cursor = item.id;
      if (subscriber.deliver(item)) continue;
      if (keeping.has(subscriber)) {
        this.#live.delete(subscriber);
        this.#follow(subscriber, item.id);
      } else this.#drop(subscriber, 'overflow');
    }
  }

  /**
   * Brings one stream from `lastEventId` up to the dispatch position, then makes it live. Without an id
   * it starts at the position. Each change waits for room in the stream's queue, so a consumer that
   * reads is never cut off here, however much it has to catch up on. An id beyond the dispatch position
   * is checked against the history first (one beyond the newest change gets a reset). Synchronous
   * between the last read and joining: if the dispatch has not passed the stream's cursor, no change can
   * fall between them.
   */
  async #catchUp(subscriber: Subscriber, lastEventId?: number): Promise<void> {
    await this.#ready;
    let cursor = lastEventId ?? this.#position;
    let unchecked = cursor > this.#position;
    let waited = false;
    subscriber.cursor = cursor;
    for (;;) {
      if (!this.#open.has(subscriber)) return;
      if (cursor >= this.#position && !unchecked) {
        // Live once the queue has room (else the next change would cut it off); waits once, then
        // the position is checked again.
        if (!waited && subscriber.backlog() > this.bufferBytes / 2) {
          waited = true;
          await subscriber.room();
          continue;
        }
        this.#live.add(subscriber);
        return;
      }
      unchecked = false;
      waited = false;
      const page = await this.#source.readLog({
        after: cursor,
        limit: this.#pageSize,
      });
      if (!this.#open.has(subscriber)) return;
      if (page.reset) {
        cursor = page.head;
        subscriber.cursor = cursor;
        if (!subscriber.reset(page.head))
          return this.#drop(subscriber, 'overflow');
        continue;
      }
      for (const item of feedItems(page)) {
        await subscriber.room();
        if (!this.#open.has(subscriber)) return;
        cursor = item.id;
        subscriber.cursor = cursor;
        if (!subscriber.deliver(item))
          return this.#drop(subscriber, 'overflow');
      }
      // Past the entries the feed does not show too.
      if (page.through > cursor) {
        cursor = page.through;
        subscriber.cursor = cursor;
      }
      // An empty page: nothing after the cursor yet (an id the dispatch has not reached), or, below the
      // dispatch position, ids without changes.
      if (page.changes.length === 0 && page.events.length === 0) {
        cursor = Math.max(cursor, this.#position);
        subscriber.cursor = cursor;
      }
    }
  }

  #drop(subscriber: Subscriber, reason: 'overflow' | 'shutdown'): void {
    const stream = this.#open.get(subscriber);
    if (stream !== undefined && reason === 'overflow') {
      this.#onCut({
        stream,
        cursor: subscriber.cursor,
        head: this.#position,
        behindChanges: Math.max(0, this.#position - subscriber.cursor),
        bufferedBytes: subscriber.backlog(),
      });
    }
    this.leave(subscriber);
    if (stream !== undefined) subscriber.end(reason);
  }
}
