/**
 * The one module that opens the browser database: its schema, its upgrades, and a
 * connection that is opened lazily, cached, and dropped whenever it fails so the next call reopens.
 */
import { wrap } from 'idb';
import type { DBSchema, IDBPDatabase } from 'idb';
import type { ConfigEntry } from '@linkconfig/shared';
import { LocalStoreError, toLocalStoreError } from './local-store-error.js';
import type {
  ConflictRecord,
  DeadLetter,
  DraftRecord,
  OutboxEntry,
  VersionRecord,
} from './sync-records.js';

/** A stored config: the entry plus its name as the key. */
export interface StoredConfigRecord extends ConfigEntry {
  name: string;
}

/** The typed schema of the database (idb `DBSchema`), built on the shared types. */
export interface ConfigDbSchema extends DBSchema {
  configs: { key: string; value: StoredConfigRecord };
  outbox: { key: string; value: OutboxEntry };
  'dead-letters': { key: string; value: DeadLetter };
  versions: { key: string; value: VersionRecord };
  conflicts: { key: string; value: ConflictRecord };
  drafts: { key: string; value: DraftRecord };
}

/**
 * Current schema version. v1 held only `configs`; v2 added the outbox and the dead letters; v3 the
 * known server versions and the conflicts; v4 the unsaved drafts.
 */
export const DB_VERSION = 4;

/** Default database name. */
export const DEFAULT_DB_NAME = 'linkconfig';

/** Options for {@link createConfigDb}. */
export interface ConfigDbOptions {
  dbName?: string;
  /** The IndexedDB factory; defaults to `globalThis.indexedDB`. Tests pass fake-indexeddb's. */
  indexedDB?: IDBFactory;
  /** How long an open may take before it is treated as failed (default 10 s). */
  openTimeoutMs?: number;
}

/** A lazily opened, self-healing connection. */
export interface ConfigDb {
  /** The database name (the tabs of an origin that use the same name share the database). */
  readonly name: string;
  /** The open database, reopening when the last connection failed or closed. */
  get(): Promise<IDBPDatabase<ConfigDbSchema>>;
  /** Runs `work` on the database; on failure, drops the connection and rejects with a LocalStoreError. */
  run<T>(
    action: string,
    work: (db: IDBPDatabase<ConfigDbSchema>) => Promise<T>,
  ): Promise<T>;
  close(): void;
}

/** Creates the connection holder for one database. */
export function createConfigDb(options: ConfigDbOptions = {}): ConfigDb {
  const dbName = options.dbName ?? DEFAULT_DB_NAME;
  const openTimeoutMs = options.openTimeoutMs ?? 10_000;
  let current: Promise<IDBPDatabase<ConfigDbSchema>> | null = null;

  const open = (): Promise<IDBPDatabase<ConfigDbSchema>> => {
    const factory =
      options.indexedDB ?? (globalThis as { indexedDB?: IDBFactory }).indexedDB;
    if (!factory) {
      return Promise.reject(
        new LocalStoreError(
          'unavailable',
          'IndexedDB is not available in this environment',
        ),
      );
    }
    return new Promise((resolve, reject) => {
      // Some browsers never settle an open (private modes, WebKit bugs): give up after a deadline.
      const timer = setTimeout(() => {
        reject(
          new LocalStoreError(
            'open-timeout',
            `Opening the browser database "${dbName}" timed out`,
          ),
        );
      }, openTimeoutMs);
      // idb's openDB always uses the global factory; open through the given one and wrap the request.
      let request: IDBOpenDBRequest;
      try {
        request = factory.open(dbName, DB_VERSION);
      } catch (error) {
        clearTimeout(timer);
        reject(
          new LocalStoreError(
            'open-failed',
            `Could not open the browser database: ${String(error)}`,
            { cause: error },
          ),
        );
        return;
      }
      request.onupgradeneeded = (event) => {
        const db = request.result;
        // Branch on the version we come from, so existing data is always kept.
        if (event.oldVersion < 1)
          db.createObjectStore('configs', { keyPath: 'name' });
        if (event.oldVersion < 2) {
          db.createObjectStore('outbox', { keyPath: 'name' });
          db.createObjectStore('dead-letters', { keyPath: 'name' });
        }
        if (event.oldVersion < 3) {
          db.createObjectStore('versions', { keyPath: 'name' });
          db.createObjectStore('conflicts', { keyPath: 'name' });
        }
        if (event.oldVersion < 4)
          db.createObjectStore('drafts', { keyPath: 'name' });
      };
      request.onblocked = () => {
        clearTimeout(timer);
        reject(
          new LocalStoreError(
            'blocked',
            'The browser database is being upgraded by another tab; close other tabs of this app',
          ),
        );
      };
      const opening = wrap(request) as unknown as Promise<
        IDBPDatabase<ConfigDbSchema>
      >;
      void opening.then(
        (db) => {
          // Another tab wants a newer version: let it proceed; our next call reopens.
          db.addEventListener('versionchange', () => {
            db.close();
            current = null;
          });
          db.addEventListener('close', () => {
            current = null;
          });
        },
        () => undefined,
      );
      opening.then(
        (db) => {
          clearTimeout(timer);
          resolve(db);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(
            new LocalStoreError(
              'open-failed',
              `Could not open the browser database: ${String(error)}`,
              { cause: error },
            ),
          );
        },
      );
    });
  };

  const get = (): Promise<IDBPDatabase<ConfigDbSchema>> => {
    if (!current) {
      const attempt = open();
      current = attempt;
      attempt.catch(() => {
        if (current === attempt) current = null;
      });
    }
    return current;
  };

  return {
    name: dbName,
    get,
    async run(action, work) {
      try {
        return await work(await get());
      } catch (error) {
        // A failed transaction may mean a dead connection: never reuse it.
        const failed = current;
        current = null;
        void failed?.then(
          (db) => db.close(),
          () => undefined,
        );
        throw toLocalStoreError(error, action);
      }
    },
    close() {
      const db = current;
      current = null;
      void db?.then(
        (d) => d.close(),
        () => undefined,
      );
    },
  };
}
