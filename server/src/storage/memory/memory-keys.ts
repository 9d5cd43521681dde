import { byCreationThenId } from '../creation-order.js';
import type { KeyRepository, StoredKey } from '../key-repository.js';

/** Keys in process memory (the memory repository's `keys`). */
export function createMemoryKeys(open: () => void): KeyRepository {
  const keys = new Map<string, StoredKey>();
  const run = <T>(fn: () => T): Promise<T> => {
    try {
      open();
      return Promise.resolve(fn());
    } catch (error) {
      return Promise.reject(
        error instanceof Error ? error : new Error(String(error)),
      );
    }
  };
  const byHash = (hash: string): StoredKey | undefined =>
    [...keys.values()].find((k) => k.secretHash === hash);
  return {
    insert: (key) =>
      run(() => {
        if (keys.has(key.id) || byHash(key.secretHash) !== undefined) {
          throw new Error(`key ${key.id} already exists`);
        }
        keys.set(key.id, { ...key, configs: [...key.configs] });
      }),
    list: () => run(() => [...keys.values()].sort(byCreationThenId)),
    findByHash: (hash) => run(() => byHash(hash) ?? null),
    revoke: (id, at) =>
      run(() => {
        const key = keys.get(id);
        if (key === undefined) return false;
        keys.set(id, { ...key, revokedAt: key.revokedAt ?? at });
        return true;
      }),
    touch: (id, at) =>
      run(() => {
        const key = keys.get(id);
        if (key !== undefined) keys.set(id, { ...key, lastUsedAt: at });
      }),
    hasAny: () => run(() => keys.size > 0),
    putAll: (rows) =>
      run(() => {
        for (const row of rows) keys.set(row.id, { ...row });
      }),
  };
}
