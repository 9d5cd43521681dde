import type { ConfigEntry, LinkConfig } from '@linkconfig/shared';
import { sortNames } from '../config-store.js';
import type { ConfigStore } from '../config-store.js';
import { createOutbox } from './outbox.js';
import type { Outbox, OutboxEntry } from './outbox.js';
import { createConfigDb } from './config-db.js';
import type { ConfigDbOptions } from './config-db.js';

/** Options of {@link createIndexedDBStore}; all optional. */
export type IndexedDBStoreOptions = ConfigDbOptions;

/**
 * A ConfigStore in the browser's IndexedDB, with the extra operations a hybrid store needs to write a
 * config and its outbox entry in one transaction.
 */
export interface IndexedDBConfigStore extends ConfigStore {
  /** Saves `config` and queues `entry` atomically: both are written or neither. */
  saveAndQueue(
    name: string,
    config: LinkConfig,
    entry: OutboxEntry,
  ): Promise<void>;
  /** Removes `name` and queues the tombstone `entry` atomically. */
  removeAndQueue(name: string, entry: OutboxEntry): Promise<void>;
  /** Stores an entry with the metadata given (used to cache a remote entry as the server dated it). */
  putEntry(name: string, entry: ConfigEntry): Promise<void>;
  /** The outbox that lives in the same database. */
  readonly outbox: Outbox;
  /** Closes the connection; the next call reopens it. */
  close(): void;
}

const nowIso = () => new Date().toISOString();

/**
 * Creates a store in IndexedDB (service contract §4.2). Needs the `idb` peer dependency.
 *
 * @example
 * const store = await createIndexedDBStore();
 * await store.save('home', { allLinks: { a: { url: 'https://example.com' } } });
 */
export async function createIndexedDBStore(
  options: IndexedDBStoreOptions = {},
): Promise<IndexedDBConfigStore> {
  const db = createConfigDb(options);
  // Open now so that an unusable database is reported by the factory, not by the first call.
  await db.run('open the browser database', async () => undefined);

  const writeConfig = async (
    name: string,
    config: LinkConfig,
    entry?: OutboxEntry,
  ): Promise<void> =>
    db.run(`save "${name}" locally`, async (d) => {
      const tx = d.transaction(['configs', 'outbox'], 'readwrite', {
        durability: 'strict',
      });
      const configs = tx.objectStore('configs');
      const previous = await configs.get(name);
      const now = nowIso();
      const createdAt = previous?.meta.createdAt ?? now;
      // Never go back in time for one name, even if the clock does.
      const updatedAt =
        previous && previous.meta.updatedAt >= now
          ? bump(previous.meta.updatedAt)
          : now;
      await configs.put({ name, config, meta: { createdAt, updatedAt } });
      if (entry) await tx.objectStore('outbox').put(entry);
      await tx.done;
    });

  const deleteConfig = async (
    name: string,
    entry?: OutboxEntry,
  ): Promise<void> =>
    db.run(`remove "${name}" locally`, async (d) => {
      const tx = d.transaction(['configs', 'outbox'], 'readwrite', {
        durability: 'strict',
      });
      await tx.objectStore('configs').delete(name);
      if (entry) await tx.objectStore('outbox').put(entry);
      await tx.done;
    });

  const loadEntry = async (name: string): Promise<ConfigEntry | null> => {
    const record = await db.run(`load "${name}" locally`, (d) =>
      d.get('configs', name),
    );
    return record ? { config: record.config, meta: record.meta } : null;
  };

  return {
    save: (name, config) => writeConfig(name, config),
    saveAndQueue: (name, config, entry) => writeConfig(name, config, entry),
    remove: (name) => deleteConfig(name),
    removeAndQueue: (name, entry) => deleteConfig(name, entry),
    loadEntry,
    load: async (name) => (await loadEntry(name))?.config ?? null,
    list: async () =>
      sortNames(
        await db.run('list local configs', (d) => d.getAllKeys('configs')),
      ),
    putEntry: (name, entry) =>
      db.run(`cache "${name}" locally`, async (d) => {
        await d.put('configs', {
          name,
          config: entry.config,
          meta: entry.meta,
        });
      }),
    outbox: createOutbox(db),
    close: () => db.close(),
  };
}

/** One millisecond after an ISO time stamp. */
function bump(iso: string): string {
  return new Date(Date.parse(iso) + 1).toISOString();
}

/** Whether `store` is one of ours, so config and outbox can share a transaction. */
export function isIndexedDBConfigStore(
  store: ConfigStore,
): store is IndexedDBConfigStore {
  const candidate = store as Partial<IndexedDBConfigStore>;
  return (
    typeof candidate.saveAndQueue === 'function' &&
    typeof candidate.removeAndQueue === 'function' &&
    typeof candidate.putEntry === 'function' &&
    candidate.outbox !== undefined
  );
}
