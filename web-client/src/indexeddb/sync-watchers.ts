/**
 * Who hears what an outbox changed: the watchers in this tab, told the facts each committed write
 * transaction left, and, through a BroadcastChannel per database, the outboxes of the other tabs of
 * the origin over the same database. Another tab's message carries only the name it wrote; the facts
 * of that name are read again here, so a message arriving late never tells anything older than what
 * the database holds. The channel is open only while someone watches.
 */
import type { NameSync, SyncChange } from './outbox-types.js';

/** The watchers of one outbox. */
export interface SyncWatchers {
  /** Whether anyone watches (so that reading the facts is worth it). */
  readonly active: boolean;
  /** Tells the watchers in this tab. */
  tell(change: SyncChange): void;
  /** A write transaction of `name` committed here: the other tabs read its facts again. */
  wrote(name: string): void;
  watch(listener: (change: SyncChange) => void): () => void;
}

/**
 * Creates the watchers of the outbox over database `dbName`; `reread` reads the facts of a name that
 * another tab wrote.
 */
export function createSyncWatchers(
  dbName: string,
  reread: (name: string) => Promise<NameSync>,
): SyncWatchers {
  const listeners = new Set<(change: SyncChange) => void>();
  let channel: BroadcastChannel | null = null;

  const tell = (change: SyncChange) => {
    for (const listener of listeners) {
      try {
        listener(change);
      } catch {
        // A throwing watcher must not fail the operation or keep the others from hearing.
      }
    }
  };
  const heard = (event: MessageEvent<unknown>) => {
    const name = event.data;
    if (typeof name !== 'string') return;
    reread(name).then(
      (facts) => {
        if (listeners.size > 0)
          tell({ kind: 'name', name, facts, elsewhere: true });
      },
      // This tab's next read of the sync state tells it instead.
      () => undefined,
    );
  };
  const open = () => {
    if (typeof BroadcastChannel !== 'function') return;
    channel = new BroadcastChannel(`linkconfig-sync:${dbName}`);
    channel.addEventListener('message', heard);
    // Outside browsers (Node) an open channel would keep the process alive.
    (channel as { unref?: () => void }).unref?.();
  };

  return {
    get active() {
      return listeners.size > 0;
    },
    tell,
    wrote(name) {
      channel?.postMessage(name);
    },
    watch(listener) {
      listeners.add(listener);
      if (channel === null) open();
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) {
          channel?.close();
          channel = null;
        }
      };
    },
  };
}
