/**
 * The durable sync state of a hybrid store, kept in IndexedDB so that every acknowledged write survives
 * reloads and crashes: one pending remote operation per config name (the outbox), the writes the server
 * refused for good (dead letters), the writes that met a newer server version (conflicts), and what is
 * known about each name's server version. Each operation is one transaction; when the outbox lives in
 * the same database as the configs, the local copy changes in that transaction too.
 */
import type { ConfigEntry, LinkConfig } from '@linkconfig/shared';
import type { IDBPTransaction } from 'idb';
import type { ConfigDb, ConfigDbSchema } from '../indexeddb/config-db.js';
import type { OutboxEntry } from './sync-records.js';
import { resolveCache, versionAfterCache } from './cache-rule.js';
import type { Outbox, VersionRecord } from './outbox-types.js';

export type * from './outbox-types.js';

type Tx = IDBPTransaction<
  ConfigDbSchema,
  ('configs' | 'outbox' | 'dead-letters' | 'versions' | 'conflicts')[],
  'readwrite'
>;

const ALL_STORES = [
  'configs',
  'outbox',
  'dead-letters',
  'versions',
  'conflicts',
] as const;

/**
 * Creates the outbox over a config database. With `ownsConfigs` the local copies live in the same
 * database and change in the same transactions; without it the caller changes its own local store.
 */
export function createOutbox(
  db: ConfigDb,
  options: { ownsConfigs: boolean },
): Outbox {
  const owns = options.ownsConfigs;

  /** Runs `work` in one read-write transaction over every store. */
  const write = <T>(action: string, work: (tx: Tx) => Promise<T>) =>
    db.run(action, async (d) => {
      const tx = d.transaction([...ALL_STORES], 'readwrite', {
        durability: 'strict',
      });
      const result = await work(tx);
      await tx.done;
      return result;
    });

  /** Changes the local copy (when this database holds it): a config with its meta, or `null` to delete. */
  const setConfig = async (
    tx: Tx,
    name: string,
    value: { config: LinkConfig; meta?: ConfigEntry['meta'] } | null,
  ) => {
    if (!owns) return;
    const configs = tx.objectStore('configs');
    if (value === null) return configs.delete(name);
    const previous = await configs.get(name);
    await configs.put({
      name,
      config: value.config,
      meta: value.meta ?? localMeta(previous?.meta),
    });
  };

  const bump = async (tx: Tx, name: string, patch: Partial<VersionRecord>) => {
    const versions = tx.objectStore('versions');
    const current = await versions.get(name);
    await versions.put({
      ...current,
      ...patch,
      name,
      rev: (current?.rev ?? 0) + 1,
    });
  };

  return {
    queue: (change) =>
      write(`save "${change.name}" locally`, async (tx) => {
        const { name, config } = change;
        const conflict = await tx.objectStore('conflicts').get(name);
        if (conflict) {
          // Still in conflict: the newest local value becomes the local side of it, nothing is sent.
          await tx.objectStore('conflicts').put({ ...conflict, local: config });
        } else {
          const outbox = tx.objectStore('outbox');
          const pending = await outbox.get(name);
          const known = await tx.objectStore('versions').get(name);
          const existed = owns
            ? (await tx.objectStore('configs').get(name)) !== undefined
            : (change.localExisted ?? true);
          // The base is the server version the user's edit started from.
          const baseEtag = pending
            ? pending.baseEtag
            : known
              ? known.etag
              : existed
                ? undefined
                : null;
          const entry: OutboxEntry = {
            name,
            op: config === null ? 'remove' : 'save',
            token: change.token,
            queuedAt: change.queuedAt,
          };
          if (config !== null) entry.config = config;
          if (baseEtag !== undefined) entry.baseEtag = baseEtag;
          await outbox.put(entry);
        }
        await setConfig(tx, name, config === null ? null : { config });
        await bump(tx, name, { serverUpdatedAt: undefined });
      }),
    get: (name) => db.run('read the outbox', (d) => d.get('outbox', name)),
    all: () =>
      db.run('read the outbox', async (d) => {
        const entries = await d.getAll('outbox');
        return entries.sort((a, b) =>
          a.queuedAt < b.queuedAt ? -1 : a.queuedAt > b.queuedAt ? 1 : 0,
        );
      }),
    acknowledge: (entry, etag) =>
      write('update the outbox', async (tx) => {
        const outbox = tx.objectStore('outbox');
        const current = await outbox.get(entry.name);
        // After a delete the server has no version; after a save, the one it answered with (if any).
        const now = entry.op === 'remove' ? null : etag;
        if (current?.token === entry.token) await outbox.delete(entry.name);
        else if (current) {
          // A newer write was queued while this one travelled: it now replaces what we just sent.
          const { baseEtag: _old, ...rest } = current;
          await outbox.put(
            now === undefined ? rest : { ...rest, baseEtag: now },
          );
        }
        const versions = tx.objectStore('versions');
        const known = await versions.get(entry.name);
        const {
          etag: _previous,
          serverUpdatedAt: _at,
          ...kept
        } = known ?? {
          rev: 0,
        };
        await versions.put(
          now === undefined
            ? { ...kept, name: entry.name }
            : { ...kept, name: entry.name, etag: now },
        );
      }),
    deadLetter: (letter) =>
      write('set a write aside', async (tx) => {
        const outbox = tx.objectStore('outbox');
        const current = (await outbox.get(letter.name))?.token === letter.token;
        if (current) {
          await outbox.delete(letter.name);
          await tx.objectStore('dead-letters').put(letter);
        }
        return current;
      }),
    deadLetters: () =>
      db.run('read the dead letters', (d) => d.getAll('dead-letters')),
    retryDeadLetter: (name, fresh) =>
      write('queue a dead letter again', async (tx) => {
        const dead = tx.objectStore('dead-letters');
        const letter = await dead.get(name);
        if (!letter) return false;
        await dead.delete(name);
        const outbox = tx.objectStore('outbox');
        const busy =
          (await outbox.get(name)) !== undefined ||
          (await tx.objectStore('conflicts').get(name)) !== undefined;
        // A newer write of the name already waits: it supersedes the refused one.
        if (busy) return false;
        const { status: _s, error: _e, failedAt: _f, ...entry } = letter;
        await outbox.put({ ...entry, ...fresh });
        return true;
      }),
    discardDeadLetter: (name) =>
      db.run(
        'discard a dead letter',
        async (d) => void (await d.delete('dead-letters', name)),
      ),
    setConflict: (entry, remote) =>
      write('set a conflict aside', async (tx) => {
        const outbox = tx.objectStore('outbox');
        if ((await outbox.get(entry.name))?.token !== entry.token) return false;
        await outbox.delete(entry.name);
        await tx.objectStore('conflicts').put({
          name: entry.name,
          local: entry.op === 'save' ? (entry.config ?? null) : null,
          remote: remote.entry,
          remoteEtag: remote.etag,
          detectedAt: new Date().toISOString(),
        });
        return true;
      }),
    conflicts: () => db.run('read the conflicts', (d) => d.getAll('conflicts')),
    settleConflict: (name, settlement) =>
      write(`settle the conflict of "${name}"`, async (tx) => {
        const conflicts = tx.objectStore('conflicts');
        const conflict = await conflicts.get(name);
        if (!conflict) return null;
        await conflicts.delete(name);
        if (settlement.kind === 'take-remote') {
          await setConfig(tx, name, conflict.remote);
          await bump(tx, name, {
            etag: conflict.remoteEtag,
            serverUpdatedAt: conflict.remote?.meta.updatedAt,
          });
          return conflict;
        }
        const config =
          settlement.kind === 'merge' ? settlement.config : conflict.local;
        // Removing what the server does not have either needs no request.
        if (config !== null || conflict.remote !== null) {
          const entry: OutboxEntry = {
            name,
            op: config === null ? 'remove' : 'save',
            token: settlement.token,
            queuedAt: settlement.queuedAt,
            baseEtag: conflict.remoteEtag,
          };
          if (config !== null) entry.config = config;
          await tx.objectStore('outbox').put(entry);
        }
        await setConfig(tx, name, config === null ? null : { config });
        await bump(tx, name, {
          etag: conflict.remoteEtag,
          serverUpdatedAt: undefined,
        });
        return conflict;
      }),
    version: (name) => db.run('read a version', (d) => d.get('versions', name)),
    versions: () => db.run('read the versions', (d) => d.getAll('versions')),
    cacheRemote: (update) =>
      write(`cache "${update.name}" locally`, async (tx) => {
        const { name } = update;
        const local = owns ? await tx.objectStore('configs').get(name) : null;
        const outcome = resolveCache({
          update,
          pending: (await tx.objectStore('outbox').get(name)) !== undefined,
          blocked:
            (await tx.objectStore('conflicts').get(name)) !== undefined ||
            (await tx.objectStore('dead-letters').get(name)) !== undefined,
          known: await tx.objectStore('versions').get(name),
          local: owns ? (local ?? null) : undefined,
        });
        if (outcome === 'ignored') return outcome;
        if (outcome === 'changed') await setConfig(tx, name, update.entry);
        const known = await tx.objectStore('versions').get(name);
        await tx
          .objectStore('versions')
          .put(versionAfterCache(update, known, outcome));
        return outcome;
      }),
    close: () => db.close(),
  };
}

/** Local time stamps for a locally written config: createdAt kept, updatedAt never going back. */
function localMeta(previous: ConfigEntry['meta'] | undefined) {
  const now = new Date().toISOString();
  const createdAt = previous?.createdAt ?? now;
  const updatedAt =
    previous && previous.updatedAt >= now
      ? new Date(Date.parse(previous.updatedAt) + 1).toISOString()
      : now;
  return { createdAt, updatedAt };
}
