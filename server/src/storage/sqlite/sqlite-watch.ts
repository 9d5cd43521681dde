/** Options of {@link createSqliteWatch}. */
export interface SqliteWatchOptions {
  /** `PRAGMA data_version`: moves whenever another connection commits to the file. */
  readonly dataVersion: () => number;
  /** How often to read it while someone watches, in ms. */
  readonly pollMs: number;
  readonly isClosed: () => boolean;
}

/**
 * The watchers of one connection. Commits through this connection are told at once ({@link notify}, by
 * the group commit); other processes' commits are found by polling `data_version`, only while someone
 * watches.
 */
export function createSqliteWatch(options: SqliteWatchOptions): {
  watch(listener: () => void): () => void;
  notify(): void;
  stop(): void;
} {
  const listeners = new Set<() => void>();
  let poller: ReturnType<typeof setInterval> | undefined;
  const notify = (): void => {
    for (const listener of listeners) listener();
  };
  const startPolling = (): void => {
    let seen = options.dataVersion();
    poller = setInterval(() => {
      if (options.isClosed()) return;
      const current = options.dataVersion();
      if (current !== seen) {
        seen = current;
        notify();
      }
    }, options.pollMs);
    poller.unref();
  };
  const stopPolling = (): void => {
    clearInterval(poller);
    poller = undefined;
  };
  return {
    watch: (listener) => {
      const own = (): void => listener();
      listeners.add(own);
      if (poller === undefined && !options.isClosed()) startPolling();
      return () => {
        listeners.delete(own);
        if (listeners.size === 0 && poller !== undefined) stopPolling();
      };
    },
    notify,
    stop: () => {
      stopPolling();
      listeners.clear();
    },
  };
}
