/**
 * Live updates of a hybrid store: it follows the server's change feed and refreshes a changed name at
 * once. Events are handled one after another, in the server's order. On the first connection and after a
 * `reset` (the server could not replay what was missed) everything cached is checked again; after an
 * ordinary reconnect the feed itself replays what happened meanwhile.
 */
import type { BackoffOptions } from '../backoff.js';
import type { ConfigStore, RemoteOperation } from '../config-store.js';
import { isVersionedRemote } from '../remote/remote-store.js';
import type { StatusBoard } from './hybrid-status.js';
import type { ReadThrough } from './read-through.js';

/** What live updates need from the store. */
export interface LiveUpdatesOptions {
  remote: ConfigStore;
  readThrough: ReadThrough;
  status: StatusBoard;
  report: (op: RemoteOperation, name: string, error: unknown) => void;
  backoff?: BackoffOptions;
}

/** Starts live updates; `null` when the remote has no change feed (the status stays `off`). */
export function startLiveUpdates(
  options: LiveUpdatesOptions,
): { close(): void } | null {
  const { remote, readThrough, status } = options;
  if (!isVersionedRemote(remote)) return null;
  let queue: Promise<void> = Promise.resolve();
  const inOrder = (work: () => Promise<void>) => {
    queue = queue.then(work, work);
  };
  let synced = false;
  const feed = remote.watchChanges({
    onChange: (event) => inOrder(() => readThrough.applyChange(event)),
    onReset: () => inOrder(() => readThrough.resync()),
    onState(state) {
      status.setLive(state);
      if (state === 'connected' && !synced) {
        // What changed before this page listened is not in the feed: check it once.
        synced = true;
        inOrder(() => readThrough.resync());
      }
    },
    onError: (error) => options.report('watch', '', error),
    backoff: options.backoff,
  });
  status.setLive(feed.state);
  return {
    close() {
      feed.close();
      status.setLive('off');
    },
  };
}
