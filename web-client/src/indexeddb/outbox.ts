/**
 * The durable sync state of a hybrid store, kept in IndexedDB so that every acknowledged write survives
 * reloads and crashes: one pending remote operation per config name (the outbox), the writes the server
 * refused for good (dead letters), the writes that met a newer server version (conflicts), and what is
 * known about each name's server version. Each operation is one transaction; when the outbox lives in
 * the same database as the configs, the local copy changes in that transaction too. Each write
 * transaction tells its watchers (here and in other tabs, `sync-watchers.ts`) the facts of the name
 * it wrote; reads tell nobody, except the one full read a store starts from (`readFacts`).
 */
import type { ConfigDb } from './config-db.js';
import type { OutboxEntry } from './sync-records.js';
import { resolveCache, versionAfterCache } from './cache-rule.js';
import type { Outbox } from './outbox-types.js';
import {
  conflictFact,
  deadLetterFact,
  factsOfAll,
  pendingFact,
} from './sync-facts.js';
import { createSyncWatchers } from './sync-watchers.js';
import {
  ALL_STORES,
  bumpVersion,
  factsIn,
  putLocalCopy,
} from './outbox-parts.js';
import type { Tx } from './outbox-parts.js';

export type * from './outbox-types.js';

/**
 * Creates the outbox over a config database. With `ownsConfigs` the local copies live in the same
 * database and change in the same transactions; without it the caller changes its own local store.
 */
export function createOutbox(
  db: ConfigDb,
  options: { ownsConfigs: boolean },
): Outbox {
  const owns = options.ownsConfigs;
  const watchers = createSyncWatchers(db.name, (name) =>
    db.run('read the sync state', (d) =>
      factsIn(d.transaction([...ALL_STORES]), name),
    ),
  );
  const tell = watchers.tell;

  /**
   * Runs `work` in one read-write transaction over every store and, once it committed, tells the
   * watchers the facts of `name` as that transaction left them (`null`: it changes no sync facts).
   */
  const write = <T>(
    action: string,
    name: string | null,
    work: (tx: Tx) => Promise<T>,
  ) =>
    db.run(action, async (d) => {
      const tx = d.transaction([...ALL_STORES], 'readwrite', {
        durability: 'strict',
      });
      const result = await work(tx);
      const facts =
        name !== null && watchers.active ? await factsIn(tx, name) : null;
      await tx.done;
      if (name !== null) watchers.wrote(name);
      if (name !== null && facts !== null) tell({ kind: 'name', name, facts });
      return result;
    });

  /** Changes the local copy, when this database holds it (`outbox-parts.ts`). */
  const setConfig = (
    tx: Tx,
    name: string,
    value: Parameters<typeof putLocalCopy>[2],
  ) => (owns ? putLocalCopy(tx, name, value) : Promise.resolve());

  return {
    queue: (change) =>
      write(`save "${change.name}" locally`, change.name, async (tx) => {
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
          const base = pending
            ? pending.base
            : baseEtag === null
              ? null
              : known?.base;
          const entry: OutboxEntry = {
            name,
            op: config === null ? 'remove' : 'save',
            token: change.token,
            queuedAt: change.queuedAt,
          };
          if (config !== null) entry.config = config;
          if (baseEtag !== undefined) entry.baseEtag = baseEtag;
          if (baseEtag !== undefined && base !== undefined) entry.base = base;
          await outbox.put(entry);
        }
        await setConfig(tx, name, config === null ? null : { config });
        await bumpVersion(tx, name, { serverUpdatedAt: undefined });
      }),
    get: (name) => db.run('read the outbox', (d) => d.get('outbox', name)),
    all: () =>
      db.run('read the outbox', async (d) => {
        const entries = await d.getAll('outbox');
        entries.sort((a, b) =>
          a.queuedAt < b.queuedAt ? -1 : a.queuedAt > b.queuedAt ? 1 : 0,
        );
        return entries;
      }),
    readFacts: () =>
      db.run('read the sync state', async (d) => {
        const tx = d.transaction(['outbox', 'dead-letters', 'conflicts']);
        const [entries, letters, conflicts] = await Promise.all([
          tx.objectStore('outbox').getAll(),
          tx.objectStore('dead-letters').getAll(),
          tx.objectStore('conflicts').getAll(),
        ]);
        for (const change of [
          factsOfAll(entries, 'pending', pendingFact),
          factsOfAll(letters, 'deadLetter', deadLetterFact),
          factsOfAll(conflicts, 'conflict', conflictFact),
        ])
          tell(change);
      }),
    acknowledge: (entry, etag) =>
      write('update the outbox', entry.name, async (tx) => {
        const outbox = tx.objectStore('outbox');
        const current = await outbox.get(entry.name);
        // After a delete the server has no version; after a save, the one it answered with (if any).
        const now = entry.op === 'remove' ? null : etag;
        // What the server now holds at `now`: what this write sent.
        const base = entry.op === 'remove' ? null : (entry.config ?? null);
        if (current?.token === entry.token) await outbox.delete(entry.name);
        else if (current) {
          // A newer write was queued while this one travelled: it now replaces what we just sent.
          const { baseEtag: _old, base: _b, ...rest } = current;
          await outbox.put(
            now === undefined ? rest : { ...rest, baseEtag: now, base },
          );
        }
        const versions = tx.objectStore('versions');
        const known = await versions.get(entry.name);
        const {
          etag: _previous,
          serverUpdatedAt: _at,
          base: _base,
          ...kept
        } = known ?? {
          rev: 0,
        };
        await versions.put(
          now === undefined
            ? { ...kept, name: entry.name }
            : { ...kept, name: entry.name, etag: now, base },
        );
      }),
    deadLetter: (letter) =>
      write('set a write aside', letter.name, async (tx) => {
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
      write('queue a dead letter again', name, async (tx) => {
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
      write('discard a dead letter', name, async (tx) => {
        const letter = await tx.objectStore('dead-letters').get(name);
        await tx.objectStore('dead-letters').delete(name);
        // The local copy goes back to the server's version the refused write was based on (none: a
        // name the server never had), unless that is unknown or a newer write waits.
        if (
          letter?.base === undefined ||
          (await tx.objectStore('outbox').get(name))
        )
          return null;
        await setConfig(
          tx,
          name,
          letter.base === null ? null : { config: letter.base },
        );
        await bumpVersion(tx, name, {});
        return { restored: letter.base };
      }),
    setConflict: (entry, remote) =>
      write('set a conflict aside', entry.name, async (tx) => {
        const outbox = tx.objectStore('outbox');
        if ((await outbox.get(entry.name))?.token !== entry.token) return false;
        await outbox.delete(entry.name);
        await tx.objectStore('conflicts').put({
          name: entry.name,
          local: entry.op === 'save' ? (entry.config ?? null) : null,
          remote: remote.entry,
          remoteEtag: remote.etag,
          ...(entry.base === undefined ? {} : { base: entry.base }),
          detectedAt: new Date().toISOString(),
        });
        return true;
      }),
    conflicts: () => db.run('read the conflicts', (d) => d.getAll('conflicts')),
    settleConflict: (name, settlement) =>
      write(`settle the conflict of "${name}"`, name, async (tx) => {
        const conflicts = tx.objectStore('conflicts');
        const conflict = await conflicts.get(name);
        if (!conflict) return null;
        await conflicts.delete(name);
        const base = conflict.remote?.config ?? null;
        if (settlement.kind === 'take-remote') {
          await setConfig(tx, name, conflict.remote);
          await bumpVersion(tx, name, {
            etag: conflict.remoteEtag,
            serverUpdatedAt: conflict.remote?.meta.updatedAt,
            base,
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
            base,
          };
          if (config !== null) entry.config = config;
          await tx.objectStore('outbox').put(entry);
        }
        await setConfig(tx, name, config === null ? null : { config });
        await bumpVersion(tx, name, {
          etag: conflict.remoteEtag,
          serverUpdatedAt: undefined,
          base,
        });
        return conflict;
      }),
    rebase: (entry, merged, remote) =>
      write(
        `merge "${entry.name}" with the server's`,
        entry.name,
        async (tx) => {
          const outbox = tx.objectStore('outbox');
          if ((await outbox.get(entry.name))?.token !== entry.token)
            return false;
          const base = remote.entry?.config ?? null;
          if (merged === null && base === null) await outbox.delete(entry.name);
          else {
            const next: OutboxEntry = {
              name: entry.name,
              op: merged === null ? 'remove' : 'save',
              token: entry.token,
              queuedAt: entry.queuedAt,
              baseEtag: remote.etag,
              base,
            };
            if (merged !== null) next.config = merged;
            await outbox.put(next);
          }
          await setConfig(
            tx,
            entry.name,
            merged === null ? null : { config: merged },
          );
          await bumpVersion(tx, entry.name, {
            etag: remote.etag,
            serverUpdatedAt: undefined,
            base,
          });
          return true;
        },
      ),
    version: (name) => db.run('read a version', (d) => d.get('versions', name)),
    versions: () => db.run('read the versions', (d) => d.getAll('versions')),
    cacheRemote: (update) =>
      write(`cache "${update.name}" locally`, null, async (tx) => {
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
    watch: (listener) => watchers.watch(listener),
    close: () => db.close(),
  };
}
