/**
 * The page's stores: IndexedDB in this browser, the server's REST API, and the hybrid of both that the
 * page works through. The token the person entered is sent by the remote store; when it changes, the
 * remote and hybrid stores are made anew around the same browser database, so writes that waited for
 * a better token go out with the new one.
 *
 * The hybrid store follows the server's change feed (`live: true`), so changes made elsewhere arrive
 * at once. Other tabs of this page share the browser database; the store hears their writes over its
 * one channel between tabs and reports them as changes too, so the page keeps no channel of its own.
 */
import {
  createHttpCaller,
  createHybridStore,
  EditBases,
  createIndexedDBStore,
  createRemoteStore,
} from '@linkconfig/web-client';
import type {
  HttpCaller,
  HybridStore,
  IndexedDBConfigStore,
  Connection,
} from '@linkconfig/web-client';
import type { LinkConfig } from '@linkconfig/shared';
import { readToken, writeToken } from './preferences.js';
import type { MergeReport } from '@linkconfig/web-client';

/** What a session tells the page. */
export interface SessionEvents {
  /** The hybrid store's status changed (pending writes, dead letters, pause). */
  status(): void;
  /**
   * Config `name` may have changed elsewhere: on the server (the change feed, a refresh, a conflict
   * settled) or in another tab of this page.
   */
  changed(name: string): void;
  /** A save of `name` met a newer server version and was merged with it without asking. */
  merged(name: string, report: MergeReport): void;
}

/** The stores of this page, and the token they send. */
export class Session {
  private hybrid: HybridStore;
  private currentToken: string | null;
  /**
   * The versions the open edits started from, which the hybrid store keeps; handed on to the store made
   * for a new token, so an open edit keeps its base.
   */
  private readonly editBases = new EditBases();

  private constructor(
    private readonly local: IndexedDBConfigStore,
    /**
     * The library's connection model (reachability and access), fed by the HTTP caller of every
     * request this page sends: the stores' and the page's own. The page subscribes to it.
     */
    readonly connection: Connection,
    private readonly events: SessionEvents,
  ) {
    this.currentToken = readToken();
    this.caller = createHttpCaller({
      baseUrl: location.origin,
      connection: this.connection,
      token: () => this.currentToken ?? undefined,
    });
    this.hybrid = this.createHybrid();
  }

  /** Opens the browser database and starts the stores; rejects with a `LocalStoreError` when it cannot. */
  static async open(options: {
    connection: Connection;
    events: SessionEvents;
  }): Promise<Session> {
    const local = await createIndexedDBStore();
    return new Session(local, options.connection, options.events);
  }

  /** The store the page reads and writes through. */
  get store(): HybridStore {
    return this.hybrid;
  }

  /** The token sent to the server, if any. */
  get token(): string | null {
    return this.currentToken;
  }

  /**
   * The caller for the page's own calls (query, search, check): the remote store's, sending the
   * current token and recording whether the server answered.
   */
  readonly caller: HttpCaller;

  /** Keeps `token` (null: none) in this browser and sends it from now on. */
  setToken(token: string | null): void {
    const next = token === null || token.trim() === '' ? null : token.trim();
    if (next === this.currentToken) return;
    writeToken(next);
    this.currentToken = next;
    this.hybrid.close();
    this.connection.resetAccess();
    this.hybrid = this.createHybrid();
    this.events.status();
  }

  /** This browser's copy of config `name` (`null`: none), without asking the server. */
  localCopy(name: string): Promise<LinkConfig | null> {
    return this.local.load(name);
  }

  /** Names of the configs kept in this browser. */
  localNames(): Promise<string[]> {
    return this.local.list();
  }

  private createHybrid(): HybridStore {
    const remote = createRemoteStore({
      baseUrl: location.origin,
      connection: this.connection,
      token: this.currentToken ?? undefined,
    });
    const hybrid = createHybridStore({
      local: this.local,
      remote,
      live: true,
      reachability: this.connection.reachability,
      editBases: this.editBases,
      onMerged: (name, report) => {
        if (hybrid === this.hybrid) this.events.merged(name, report);
      },
    });
    hybrid.subscribe(() => {
      if (hybrid === this.hybrid) this.events.status();
    });
    hybrid.subscribeChanges((name) => {
      if (hybrid === this.hybrid) this.events.changed(name);
    });
    return hybrid;
  }
}
