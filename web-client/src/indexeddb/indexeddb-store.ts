import type { ConfigEntry, LinkConfig } from '@linkconfig/shared';
import { sortNames } from '../config-store.js';
import type { ConfigStore } from '../config-store.js';
import { sanitizeEntry } from '../sanitize-config.js';
import { createDrafts } from './drafts.js';
import type { Drafts } from './drafts.js';
import { createOutbox } from './outbox.js';
import type { Outbox } from './outbox.js';
import { createConfigDb } from './config-db.js';
import type { ConfigDbOptions } from './config-db.js';

/** Options of {@link createIndexedDBStore}; all optional. */
export type IndexedDBStoreOptions = ConfigDbOptions;

/**
 * A ConfigStore in the browser's IndexedDB, with the outbox a hybrid store needs: it lives in the same
 * database, so a config and its outbox entry are written in one transaction.
 */
export interface IndexedDBConfigStore extends ConfigStore {
  /** The outbox that lives in the same database (its writes change the configs too). */
  readonly outbox: Outbox;
  /** Unsaved edits kept in the same database, so that they survive a reload. */
  readonly drafts: Drafts;
  /** Closes the connection; the next call reopens it. */
  close(): void;
}

const nowIso = () => new Date().toISOString();

/**
 * Creates a store in IndexedDB (docs/client-stores.md). Needs the `idb` peer dependency.
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

  const writeConfig = async (name: string, config: LinkConfig): Promise<void> =>
    db.run(`save "${name}" locally`, async (d) => {
      const tx = d.transaction('configs', 'readwrite', {
        durability: 'strict',
      });
      const configs = tx.store;
      const previous = await configs.get(name);
      const now = nowIso();
      const createdAt = previous?.meta.createdAt ?? now;
      // Never go back in time for one name, even if the clock does.
      const updatedAt =
        previous && previous.meta.updatedAt >= now
          ? bump(previous.meta.updatedAt)
          : now;
      await configs.put({ name, config, meta: { createdAt, updatedAt } });
      await tx.done;
    });

  const deleteConfig = async (name: string): Promise<void> =>
    db.run(`remove "${name}" locally`, async (d) => {
      const tx = d.transaction('configs', 'readwrite', {
        durability: 'strict',
      });
      await tx.store.delete(name);
      await tx.done;
    });

  const loadEntry = async (name: string): Promise<ConfigEntry | null> => {
    const record = await db.run(`load "${name}" locally`, (d) =>
      d.get('configs', name),
    );
    // Stored as saved; handed out with dangerous URLs neutralised, as the server does.
    return record
      ? sanitizeEntry({ config: record.config, meta: record.meta })
      : null;
  };

  return {
    save: (name, config) => writeConfig(name, config),
    remove: (name) => deleteConfig(name),
    loadEntry,
    load: async (name) => (await loadEntry(name))?.config ?? null,
    list: async () =>
      sortNames(
        await db.run('list local configs', (d) => d.getAllKeys('configs')),
      ),
    outbox: createOutbox(db, { ownsConfigs: true }),
    drafts: createDrafts(db),
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
  return typeof candidate.outbox?.queue === 'function';
}
