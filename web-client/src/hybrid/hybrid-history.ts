import type { ConfigStore } from '../config-store.js';
import type { Reachability } from '../reachability.js';
import { hasHistory } from '../remote/remote-history.js';
import type { HistoryStore } from '../remote/remote-history.js';

/** Why a hybrid store's history call was refused without asking the server. */
export class HistoryUnavailableError extends Error {
  override readonly name = 'HistoryUnavailableError';
}

/**
 * The history calls of a hybrid store: history lives on the server only, so each goes to the remote
 * store while the server is reachable, and rejects at once with a {@link HistoryUnavailableError} when
 * it is known to be offline (or the remote keeps no history). A restore then refreshes the local copy.
 */
export function createHybridHistory(deps: {
  readonly remote: ConfigStore;
  readonly reachability: Reachability;
  /** Re-reads `name` from the server into the local copy (after a restore). */
  readonly refresh: (name: string) => Promise<void>;
}): HistoryStore {
  const { remote, reachability } = deps;
  const online = (): HistoryStore => {
    if (!hasHistory(remote)) {
      throw new HistoryUnavailableError(
        'history needs a remote store of this package (createRemoteStore)',
      );
    }
    const browserOffline =
      typeof navigator !== 'undefined' && navigator.onLine === false;
    if (reachability.current === false || browserOffline) {
      throw new HistoryUnavailableError(
        'history is kept on the server, which cannot be reached now (offline); try again when online',
      );
    }
    return remote;
  };
  return {
    history: async (name, options) => online().history(name, options),
    loadRevision: async (name, rev) => online().loadRevision(name, rev),
    diff: async (name, from, to) => online().diff(name, from, to),
    listDeleted: async () => online().listDeleted(),
    restore: async (name, rev, options) => {
      const result = await online().restore(name, rev, options);
      await deps.refresh(name);
      return result;
    },
  };
}
