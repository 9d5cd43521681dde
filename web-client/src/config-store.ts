import { compareNames } from '@linkconfig/shared';
import type { ConfigEntry, LinkConfig } from '@linkconfig/shared';

export type { ConfigEntry, LinkConfig };

/**
 * One store of many named configs (docs/client-stores.md). Every store kind implements it: IndexedDB,
 * remote (REST) and hybrid.
 */
export interface ConfigStore {
  /** Saves or overwrites the config under `name`. */
  save(name: string, config: LinkConfig): Promise<void>;
  /** The config under `name`, or `null` when there is none. */
  load(name: string): Promise<LinkConfig | null>;
  /** The config with its metadata, or `null` when there is none. */
  loadEntry(name: string): Promise<ConfigEntry | null>;
  /** Every saved name, sorted by code point. */
  list(): Promise<string[]>;
  /** Deletes `name`; a no-op when it does not exist. */
  remove(name: string): Promise<void>;
}

/** The remote operations a hybrid store reports through `onRemoteError` (`watch`: the change feed). */
export type RemoteOperation = 'save' | 'remove' | 'load' | 'list' | 'watch';

/** Sorts names by code point, like the server's `GET /configs`. */
export function sortNames(names: Iterable<string>): string[] {
  return [...names].sort(compareNames);
}
