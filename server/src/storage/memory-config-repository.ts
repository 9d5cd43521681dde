import { compareNames } from './config-repository.js';
import type {
  ConfigRepository,
  PutResult,
  StoredConfig,
} from './config-repository.js';

/** A repository in process memory: for unit tests and throwaway demos, never for the running server. */
export function createMemoryConfigRepository(): ConfigRepository {
  const rows = new Map<string, StoredConfig>();
  let versions = 0;
  let closed = false;
  const open = (): void => {
    if (closed) throw new Error('repository is closed');
  };
  return {
    list: async () => {
      open();
      return [...rows.keys()].sort(compareNames);
    },
    get: async (name) => {
      open();
      return rows.get(name) ?? null;
    },
    listVersions: async () => {
      open();
      return [...rows.values()]
        .map(({ name, version }) => ({ name, version }))
        .sort((a, b) => compareNames(a.name, b.name));
    },
    version: async (name) => {
      open();
      return rows.get(name)?.version ?? null;
    },
    put: async (name, json, now): Promise<PutResult> => {
      open();
      const previous = rows.get(name);
      const updatedAt = now.toISOString();
      const row: StoredConfig = {
        name,
        json,
        createdAt: previous?.createdAt ?? updatedAt,
        updatedAt,
        version: ++versions,
      };
      rows.set(name, row);
      return {
        createdAt: row.createdAt,
        updatedAt,
        version: row.version,
        created: previous === undefined,
      };
    },
    remove: async (name) => {
      open();
      versions++;
      return rows.delete(name);
    },
    changeToken: () => String(versions),
    count: async () => {
      open();
      return rows.size;
    },
    close: async () => {
      closed = true;
    },
  };
}
