/**
 * Reads of a hybrid store: local first, the server behind it. A name not cached yet is fetched and
 * cached; a cached one is answered at once and refreshed in the background. Every answer from the server
 * goes through the cache rule, so a slow answer never replaces a newer local version and a waiting local
 * change is never overwritten. Names the server no longer has disappear locally unless they hold work
 * that was never delivered.
 */
import type { ConfigEntry } from '@linkconfig/shared';
import { sortNames } from '../config-store.js';
import type { ConfigStore, RemoteOperation } from '../config-store.js';
import type { ChangeEvent } from '../remote/change-event.js';
import { isVersionedRemote } from '../remote/remote-store.js';
import { sanitizeEntry } from '../sanitize-config.js';
import type { Replica } from './replica.js';
import type { SyncQueue } from './sync-queue.js';

/** What the read path needs from the store. */
export interface ReadThroughOptions {
  replica: Replica;
  remote: ConfigStore;
  queue: SyncQueue;
  /** Reports a failed remote read (`onRemoteError`). */
  report: (op: RemoteOperation, name: string, error: unknown) => void;
  /** Tells listeners that a name changed (locally, or on the server for a name not cached). */
  changed: (name: string) => void;
  /** Asks for the status to be recomputed. */
  statusChanged: () => void;
  isClosed: () => boolean;
}

/** The read operations of a hybrid store. */
export interface ReadThrough {
  loadEntry(name: string): Promise<ConfigEntry | null>;
  list(): Promise<string[]>;
  /** The names of the server's latest answer to a list, `null` before one. */
  serverNames(): string[] | null;
  /** Refreshes one cached name from the server; never rejects. */
  refresh(name: string): Promise<void>;
  /** Acts on one event of the server's change feed; never rejects. */
  applyChange(event: ChangeEvent): Promise<void>;
  /** Re-lists and refreshes every local copy (the feed missed changes, or just started); never rejects. */
  resync(): Promise<void>;
}

/** What a server read found: a version (with its ETag when known), or "still the one you have". */
type Fetched =
  | { entry: ConfigEntry | null; etag: string | null | undefined }
  | 'not-modified';

/** Creates the read path. */
export function createReadThrough(options: ReadThroughOptions): ReadThrough {
  const { replica, remote, queue } = options;
  const versioned = isVersionedRemote(remote) ? remote : null;

  /** Runs a remote read, keeping the queue informed; never rejects. Nothing is sent during a Retry-After. */
  const remoteCall = async <T>(
    op: RemoteOperation,
    name: string,
    work: () => Promise<T>,
  ): Promise<{ ok: true; value: T } | { ok: false }> => {
    if (options.isClosed() || queue.holdOffMs > 0) return { ok: false };
    try {
      const value = await work();
      const before = { reachable: queue.reachable, error: queue.lastError };
      queue.remoteSucceeded();
      if (before.reachable !== true || before.error !== queue.lastError)
        options.statusChanged();
      return { ok: true, value };
    } catch (error) {
      queue.remoteFailed(error);
      options.report(op, name, error);
      options.statusChanged();
      return { ok: false };
    }
  };

  const fetchVersion = async (
    name: string,
    ifNoneMatch: string | undefined,
  ): Promise<Fetched> => {
    if (!versioned)
      return { entry: await remote.loadEntry(name), etag: undefined };
    const answer = await versioned.loadVersioned(name, { ifNoneMatch });
    if (answer.status === 'not-modified') return 'not-modified';
    return answer.status === 'found'
      ? { entry: answer.entry, etag: answer.etag ?? undefined }
      : { entry: null, etag: null };
  };

  /**
   * Takes a server answer into the local copy under the cache rule, telling listeners when it changed a
   * copy they may show (not for a name fetched for the first time: that answer goes to the caller).
   * Never rejects.
   */
  const take = async (
    name: string,
    fetched: Fetched,
    seen: { rev: number; first?: boolean },
  ) => {
    if (fetched === 'not-modified' || options.isClosed()) return;
    try {
      const outcome = await replica.cacheRemote({
        name,
        ...fetched,
        seenRev: seen.rev,
      });
      if (outcome === 'changed' && !seen.first) options.changed(name);
    } catch {
      // A local write failure: the local copy stays as it was; the next read tries again.
    }
  };

  const seen = async (name: string) =>
    (await replica.outbox.version(name).catch(() => undefined)) ?? {
      rev: 0,
      etag: undefined,
    };

  const refresh = async (name: string) => {
    const known = await seen(name);
    // A conditional read answers 304 without a body while the server still holds what we have.
    const ifNoneMatch =
      replica.conditionalReads && typeof known.etag === 'string'
        ? known.etag
        : undefined;
    const result = await remoteCall('load', name, () =>
      fetchVersion(name, ifNoneMatch),
    );
    if (result.ok) await take(name, result.value, known);
  };

  /** Whether the local side says "absent" for a name: a remove waits, or a conflict's local side is one. */
  const removedLocally = async (name: string) => {
    const [pending, conflicts] = await Promise.all([
      replica.outbox.get(name),
      replica.outbox.conflicts(),
    ]);
    return (
      pending?.op === 'remove' ||
      conflicts.some((c) => c.name === name && c.local === null)
    );
  };

  let lastListed: string[] | null = null;
  const list = async () => {
    const [names, pending, conflicts, versions] = await Promise.all([
      replica.list(),
      replica.outbox.all(),
      replica.outbox.conflicts(),
      replica.outbox.versions(),
    ]);
    const all = new Set(names);
    const result = await remoteCall('list', '', () => remote.list());
    if (result.ok) {
      lastListed = result.value;
      const onServer = new Set(result.value);
      const revs = new Map(versions.map((v) => [v.name, v]));
      for (const name of names) {
        const known = revs.get(name);
        if (onServer.has(name) || typeof known?.etag !== 'string') continue;
        // The server had it and no longer does: drop the local copy, unless it holds unsent work.
        await take(name, { entry: null, etag: null }, known);
        if (!(await replica.loadEntry(name).catch(() => null)))
          all.delete(name);
      }
      for (const name of onServer) all.add(name);
    }
    for (const entry of pending)
      if (entry.op === 'remove') all.delete(entry.name);
    for (const conflict of conflicts)
      if (conflict.local === null) all.delete(conflict.name);
    return sortNames(all);
  };

  return {
    async loadEntry(name) {
      const cached = await replica.loadEntry(name);
      if (cached) {
        void refresh(name);
        return cached;
      }
      if (await removedLocally(name)) return null; // never fetch back what waits to be deleted
      const known = await seen(name);
      const result = await remoteCall('load', name, () =>
        fetchVersion(name, undefined),
      );
      if (!result.ok || result.value === 'not-modified' || !result.value.entry)
        return null;
      const { entry } = result.value;
      await take(name, result.value, { rev: known.rev, first: true });
      // Answer what the store now holds (a save made meanwhile wins); the server's copy if caching failed.
      const local = await replica.loadEntry(name).catch(() => null);
      if (local) return local;
      return (await removedLocally(name)) ? null : sanitizeEntry(entry);
    },
    list,
    serverNames: () => lastListed,
    refresh,
    async applyChange(event) {
      try {
        // A change while ours waits: ours wins until acknowledged, and the server reports a conflict
        // when it is sent. Checked first: an acknowledgement is stored only after the queue noted the
        // ETag it got, so one of the two checks recognises our own writes coming back.
        if (await replica.outbox.get(event.name)) return;
        if (event.etag !== null && queue.wrote(event.name, event.etag)) return;
        const known = await seen(event.name);
        if (event.etag !== null && known.etag === event.etag) return;
        if (event.op === 'delete') {
          if (typeof known.etag === 'string')
            await take(event.name, { entry: null, etag: null }, known);
          else options.changed(event.name);
          return;
        }
        if (await replica.loadEntry(event.name)) await refresh(event.name);
        // Not cached here: nothing to refresh, but lists of names may have changed.
        else options.changed(event.name);
      } catch {
        // A local failure; the next read or re-list repairs it.
      }
    },
    async resync() {
      try {
        await list();
        for (const name of await replica.list()) {
          if (options.isClosed()) return;
          await refresh(name);
        }
      } catch {
        // As above.
      }
    },
  };
}
