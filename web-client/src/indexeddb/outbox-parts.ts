/**
 * Small parts of the outbox (`outbox.ts`): its transaction type, the facts of a name read in a
 * transaction, and the two steps its writes share inside a transaction: changing the local copy (with
 * its local time stamps) and counting a name's version record up.
 */
import type { IDBPTransaction } from 'idb';
import type { ConfigEntry, LinkConfig } from '@linkconfig/shared';
import type { ConfigDbSchema } from './config-db.js';
import type { NameSync, VersionRecord } from './outbox-types.js';
import { factsOf } from './sync-facts.js';

/** A read-write transaction over every store of the sync state. */
export type Tx = IDBPTransaction<
  ConfigDbSchema,
  ('configs' | 'outbox' | 'dead-letters' | 'versions' | 'conflicts')[],
  'readwrite'
>;

/** Every store a write transaction of the outbox spans. */
export const ALL_STORES = [
  'configs',
  'outbox',
  'dead-letters',
  'versions',
  'conflicts',
] as const;

/** The facts of `name` in a transaction. */
export async function factsIn<Mode extends IDBTransactionMode>(
  tx: IDBPTransaction<ConfigDbSchema, (typeof ALL_STORES)[number][], Mode>,
  name: string,
): Promise<NameSync> {
  const [entry, letter, conflict] = await Promise.all([
    tx.objectStore('outbox').get(name),
    tx.objectStore('dead-letters').get(name),
    tx.objectStore('conflicts').get(name),
  ]);
  return factsOf({ entry, letter, conflict });
}

/** Local time stamps for a locally written config: createdAt kept, updatedAt never going back. */
export function localMeta(previous: ConfigEntry['meta'] | undefined) {
  const now = new Date().toISOString();
  const createdAt = previous?.createdAt ?? now;
  const updatedAt =
    previous && previous.updatedAt >= now
      ? new Date(Date.parse(previous.updatedAt) + 1).toISOString()
      : now;
  return { createdAt, updatedAt };
}

/** Changes the local copy in `tx`: a config with its meta (local time stamps by default), or `null` to delete. */
export async function putLocalCopy(
  tx: Tx,
  name: string,
  value: { config: LinkConfig; meta?: ConfigEntry['meta'] } | null,
): Promise<void> {
  const configs = tx.objectStore('configs');
  if (value === null) return configs.delete(name);
  const previous = await configs.get(name);
  await configs.put({
    name,
    config: value.config,
    meta: value.meta ?? localMeta(previous?.meta),
  });
}

/** Applies `patch` to the version record of `name` in `tx` and counts its local revision up. */
export async function bumpVersion(
  tx: Tx,
  name: string,
  patch: Partial<VersionRecord>,
): Promise<void> {
  const versions = tx.objectStore('versions');
  const current = await versions.get(name);
  await versions.put({
    ...current,
    ...patch,
    name,
    rev: (current?.rev ?? 0) + 1,
  });
}
