/**
 * Small parts of the outbox (`outbox.ts`): its transaction type, the facts of a name read in a
 * transaction, and the local time stamps of a locally written config.
 */
import type { IDBPTransaction } from 'idb';
import type { ConfigEntry } from '@linkconfig/shared';
import type { ConfigDbSchema } from '../indexeddb/config-db.js';
import type { NameSync } from './outbox-types.js';
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
