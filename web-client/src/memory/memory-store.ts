import type { ConfigEntry } from '@linkconfig/shared';
import { sortNames } from '../config-store.js';
import type { ConfigStore } from '../config-store.js';
import { sanitizeEntry } from '../sanitize-config.js';

/** Options of {@link createMemoryStore}. */
export interface MemoryStoreOptions {
  /** Entries the store starts with, by name. */
  initial?: Record<string, ConfigEntry>;
}

/**
 * Creates a ConfigStore that keeps configs in memory, for tests, demos and as the local side of a hybrid
 * store that needs no persistence. It behaves like the IndexedDB store: values are copied on the way in
 * and out, time stamps never go back for one name, and URLs come back sanitized.
 *
 * @example
 * const store = createMemoryStore();
 * await store.save('home', { allLinks: { a: { url: 'https://example.com' } } });
 */
export function createMemoryStore(
  options: MemoryStoreOptions = {},
): ConfigStore {
  const entries = new Map<string, ConfigEntry>(
    Object.entries(options.initial ?? {}).map(([name, entry]) => [
      name,
      structuredClone(entry),
    ]),
  );
  let lastStamp = '';

  /** Now as ISO text, strictly after the previous stamp even if the clock stands still or goes back. */
  const stamp = () => {
    const now = new Date().toISOString();
    lastStamp =
      now > lastStamp ? now : new Date(Date.parse(lastStamp) + 1).toISOString();
    return lastStamp;
  };

  const loadEntry = async (name: string) => {
    const entry = entries.get(name);
    return entry ? sanitizeEntry(structuredClone(entry)) : null;
  };

  return {
    async save(name, config) {
      const now = stamp();
      entries.set(name, {
        config: structuredClone(config),
        meta: {
          createdAt: entries.get(name)?.meta.createdAt ?? now,
          updatedAt: now,
        },
      });
    },
    loadEntry,
    load: async (name) => (await loadEntry(name))?.config ?? null,
    list: async () => sortNames(entries.keys()),
    remove: async (name) => void entries.delete(name),
  };
}
