/**
 * The one model of the connection to the server: whether it answers (reachability) and what the token
 * may do (access to reads and writes, the latest refusal that was not about access). It is fed by the
 * HTTP caller itself (`HttpCallerOptions.connection`): every request of a remote store, its history,
 * its change feed and an app's own calls through the same caller report here, so no method can be
 * left out by a hand-written wrapper. All of it comes from the outcome of the request (status, error
 * kind), never from message text.
 */
import { Reachability } from '../reachability.js';
import { RemoteStoreError } from './remote-store-error.js';

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

/** Reads (list, load, query, search, history) or writes (save, patch, remove, restore). */
export type CallKind = 'read' | 'write';

/** What a request counts as: by default a GET or HEAD is a read, any other method a write. */
export type CallAccess = CallKind | 'none';

/** Statuses that refuse what was sent, not a failure of the server or of access. */
const ABOUT_THE_REQUEST: ReadonlySet<number> = new Set([400, 422]);

/** Whether `method` reads or writes, when a request does not say. */
export function callKindOf(method: string): CallKind {
  const upper = method.toUpperCase();
  return upper === 'GET' || upper === 'HEAD' ? 'read' : 'write';
}

/** Reachability and access as the requests so far found them; listeners hear about every change. */
export class Connection {
  /** Whether the server answers; pass it as a hybrid store's `reachability`. */
  readonly reachability = new Reachability();
  private access: Record<CallKind, Access> = {
    read: ACCESS.unknown,
    write: ACCESS.unknown,
  };
  private failures: Record<CallKind, RemoteStoreError | null> = {
    read: null,
    write: null,
  };
  private readonly listeners = new Set<() => void>();

  constructor() {
    this.reachability.subscribe(() => this.emit());
  }

  /** Whether the server answered the latest request (`null` before any). */
  get reachable(): boolean | null {
    return this.reachability.current;
  }

  /** Access for `kind` with the current token. */
  accessFor(kind: CallKind): Access {
    return this.access[kind];
  }

  /**
   * The latest refusal of `kind` that was not about access (a 5xx, 429, 404 …), until one succeeds.
   * A refusal of what was sent (400, 422: a pattern the server cannot use, say) is the caller's to show
   * beside its input and is not kept here.
   */
  failureOf(kind: CallKind): RemoteStoreError | null {
    return this.failures[kind];
  }

  /** The server answered a request of `kind` with success (`none`: only reachability is noted). */
  answered(kind: CallAccess): void {
    this.reachability.record(true);
    if (kind === 'none') return;
    if (this.access[kind] === ACCESS.ok && this.failures[kind] === null) return;
    this.access[kind] = ACCESS.ok;
    // A token good enough to write is good enough to read.
    if (kind === 'write') this.access.read = ACCESS.ok;
    this.failures[kind] = null;
    this.emit();
  }

  /**
   * A request of `kind` failed with `error`; `tokenSent` says whether it carried a token (which tells
   * "needs a token" from "token refused"). A conflict (412) is an answer, not an access problem; a
   * network failure or a timeout means the server did not answer.
   */
  failed(kind: CallAccess, error: unknown, tokenSent: boolean): void {
    if (!(error instanceof RemoteStoreError)) return;
    if (error.kind === 'network' || error.kind === 'timeout') {
      this.reachability.record(false);
      return;
    }
    this.reachability.record(true);
    if (error.kind !== 'http' || kind === 'none') return;
    if (error.status === 401)
      this.access[kind] = tokenSent ? ACCESS.tokenRefused : ACCESS.needsToken;
    else if (error.status === 403)
      this.access[kind] =
        kind === 'write' && tokenSent ? ACCESS.readOnly : ACCESS.tokenRefused;
    else if (ABOUT_THE_REQUEST.has(error.status)) return;
    else this.failures[kind] = error;
    this.emit();
  }

  /** The token changed: what was learned about access no longer holds (reachability does). */
  resetAccess(): void {
    this.access = { read: ACCESS.unknown, write: ACCESS.unknown };
    this.failures = { read: null, write: null };
    this.emit();
  }

  /** Calls `listener` after every change of reachability or access; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(): void {
    for (const listener of this.listeners) {
      try {
        listener();
      } catch {
        // A throwing listener must not keep the others from hearing about it.
      }
    }
  }
}
