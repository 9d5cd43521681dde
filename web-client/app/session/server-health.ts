/**
 * What the page knows about its access to the server, learned from the outcome of every remote call
 * (the stores' and the page's own): whether reads and writes are allowed with the current token, the
 * latest refusal that was not about access, and the names the server listed last. All of it comes
 * from the structured `RemoteStoreError` (kind and status), never from message text.
 */
import { hasHistory, RemoteStoreError } from '@linkconfig/web-client';
import type {
  ConfigEntry,
  HistoryStore,
  LinkConfig,
  RemoteConfigStore,
} from '@linkconfig/web-client';

/** Access to reads or writes: not known yet, allowed, or why not. */
export const ACCESS = {
  unknown: 'unknown',
  ok: 'ok',
  /** 401 without a token. */
  needsToken: 'needs-token',
  /** 401 with a token: the server does not know it. */
  tokenRefused: 'token-refused',
  /** 403 on a write: the token may only read. */
  readOnly: 'read-only',
} as const;
/** One of {@link ACCESS}. */
export type Access = (typeof ACCESS)[keyof typeof ACCESS];

/** Reads (list, load, query, search) or writes (save, remove). */
export type CallKind = 'read' | 'write';

/** Access and failures seen so far; listeners hear about every change. */
export class ServerHealth {
  private access: Record<CallKind, Access> = {
    read: ACCESS.unknown,
    write: ACCESS.unknown,
  };
  private failures: Record<CallKind, RemoteStoreError | null> = {
    read: null,
    write: null,
  };
  private names: string[] | null = null;
  private readonly listeners = new Set<() => void>();

  /** @param hasToken whether a token is being sent (tells "needs a token" from "token refused"). */
  constructor(private readonly hasToken: () => boolean) {}

  /** Access for `kind` with the current token. */
  accessFor(kind: CallKind): Access {
    return this.access[kind];
  }

  /** The latest refusal of `kind` that was not about access (a 5xx, 429, 404 …), until one succeeds. */
  failureOf(kind: CallKind): RemoteStoreError | null {
    return this.failures[kind];
  }

  /** The names of the server's latest answer to a list, in this page's life. */
  get serverNames(): string[] | null {
    return this.names;
  }

  /** A call of `kind` succeeded. */
  succeeded(kind: CallKind): void {
    if (this.access[kind] === ACCESS.ok && this.failures[kind] === null) return;
    this.access[kind] = ACCESS.ok;
    // A token good enough to write is good enough to read.
    if (kind === 'write') this.access.read = ACCESS.ok;
    this.failures[kind] = null;
    this.emit();
  }

  /** A call of `kind` failed with `error`. */
  failed(kind: CallKind, error: unknown): void {
    if (!(error instanceof RemoteStoreError) || error.kind !== 'http') return;
    if (error.status === 401)
      this.access[kind] = this.hasToken()
        ? ACCESS.tokenRefused
        : ACCESS.needsToken;
    else if (error.status === 403)
      this.access[kind] =
        kind === 'write' && this.hasToken()
          ? ACCESS.readOnly
          : ACCESS.tokenRefused;
    else this.failures[kind] = error;
    this.emit();
  }

  /** The token changed: what was learned about access no longer holds. */
  reset(): void {
    this.access = { read: ACCESS.unknown, write: ACCESS.unknown };
    this.failures = { read: null, write: null };
    this.emit();
  }

  /** Calls `listener` after every change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Wraps a remote store so that every call reports its outcome here; a successful `list` also
   * records the server's names. The wrapper keeps what makes the store a versioned one (conditional
   * reads and writes, the change feed), so the hybrid store still detects conflicts and follows the
   * feed through it. A conflict (412) is not an access problem and is not recorded.
   */
  observe(remote: RemoteConfigStore): RemoteConfigStore {
    const track = async <T>(kind: CallKind, work: () => Promise<T>) => {
      try {
        const value = await work();
        this.succeeded(kind);
        return value;
      } catch (error) {
        this.failed(kind, error);
        throw error;
      }
    };
    return {
      save: (name: string, config: LinkConfig) =>
        track('write', () => remote.save(name, config)),
      remove: (name: string) => track('write', () => remote.remove(name)),
      load: (name: string) => track('read', () => remote.load(name)),
      loadEntry: (name: string): Promise<ConfigEntry | null> =>
        track('read', () => remote.loadEntry(name)),
      list: () =>
        track('read', async () => {
          const names = await remote.list();
          this.names = names;
          return names;
        }),
      // The versioned calls too: without them the hybrid store would take this for a plain store and
      // send no preconditions (lost updates unseen) and follow no change feed.
      loadVersioned: (name, options) =>
        track('read', () => remote.loadVersioned(name, options)),
      patch: (name, patch, condition) =>
        track('write', () => remote.patch(name, patch, condition)),
      saveVersioned: (name, config, condition) =>
        track('write', () => remote.saveVersioned(name, config, condition)),
      removeVersioned: (name, condition) =>
        track('write', () => remote.removeVersioned(name, condition)),
      // The feed's state and failures count as reads: a refused token shows in the status.
      watchChanges: (options) =>
        remote.watchChanges({
          ...options,
          onState: (state) => {
            if (state === 'connected') this.succeeded('read');
            options.onState?.(state);
          },
          onError: (error) => {
            this.failed('read', error);
            options.onError?.(error);
          },
        }),
      // The history calls too: without them the hybrid store would say history is not available.
      ...(hasHistory(remote)
        ? ({
            history: (name, opts) =>
              track('read', () => remote.history(name, opts)),
            loadRevision: (name, rev) =>
              track('read', () => remote.loadRevision(name, rev)),
            diff: (name, from, to) =>
              track('read', () => remote.diff(name, from, to)),
            listDeleted: () => track('read', () => remote.listDeleted()),
            restore: (name, rev, opts) =>
              track('write', () => remote.restore(name, rev, opts)),
          } satisfies HistoryStore)
        : {}),
    };
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }
}
