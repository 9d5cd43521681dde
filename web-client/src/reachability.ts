/**
 * Whether the server answers: the one model of it, shared by a hybrid store (its delivery and reads
 * record their outcome here, see `HybridStoreOptions.reachability`) and an app's own calls, made
 * through {@link Reachability.fetch}. Any HTTP answer means reachable; a network failure or a timeout
 * means not (a request its caller aborted means nothing). This does not trust `navigator.onLine`.
 */
export class Reachability {
  private state: boolean | null = null;
  private readonly listeners = new Set<
    (now: boolean, before: boolean | null) => void
  >();

  /** `true`/`false` after the first call, `null` before. */
  get current(): boolean | null {
    return this.state;
  }

  /** A `fetch` that records whether the server answered. */
  readonly fetch: typeof fetch = async (input, init) => {
    try {
      const response = await globalThis.fetch(input, init);
      this.record(true);
      return response;
    } catch (error) {
      // A request its caller stopped (a newer one replaced it, a feed was closed) says nothing about
      // the server; one that ran out of time does.
      const reason: unknown = init?.signal?.aborted ? init.signal.reason : null;
      if (!(reason instanceof DOMException && reason.name === 'AbortError'))
        this.record(false);
      throw error;
    }
  };

  /** Calls `listener` whenever reachability changes; returns the unsubscribe function. */
  subscribe(
    listener: (now: boolean, before: boolean | null) => void,
  ): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Records whether the server answered a call. */
  record(now: boolean): void {
    const before = this.state;
    if (before === now) return;
    this.state = now;
    for (const listener of this.listeners) {
      try {
        listener(now, before);
      } catch {
        // A throwing listener must not keep the others from hearing about it.
      }
    }
  }
}
