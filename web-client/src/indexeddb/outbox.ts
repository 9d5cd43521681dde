/**
 * The durable outbox of a hybrid store: one pending remote operation per config name, plus the dead
 * letters. Kept in IndexedDB so that every acknowledged write survives reloads and crashes.
 */
import type { ConfigDb, DeadLetter, OutboxEntry } from './config-db.js';

export type { DeadLetter, OutboxEntry };

/** Storage of pending remote operations, keyed by config name (a later write replaces an earlier one). */
export interface Outbox {
  /** Queues `entry`, replacing any pending entry for the same name. */
  put(entry: OutboxEntry): Promise<void>;
  get(name: string): Promise<OutboxEntry | undefined>;
  /** Pending entries, oldest first. */
  all(): Promise<OutboxEntry[]>;
  /** Deletes the entry for `name` only if it still carries `token` (it was not replaced meanwhile). */
  ackIfCurrent(name: string, token: string): Promise<boolean>;
  /** Moves the entry to the dead letters, if it still carries the same token. */
  deadLetter(letter: DeadLetter): Promise<boolean>;
  deadLetters(): Promise<DeadLetter[]>;
  /** Forgets a dead letter. */
  discardDeadLetter(name: string): Promise<void>;
  close(): void;
}

/** Creates an outbox over the `outbox` and `dead-letters` stores of a config database. */
export function createOutbox(db: ConfigDb): Outbox {
  return {
    put: (entry) =>
      db.run(
        'queue a remote write',
        async (d) => void (await d.put('outbox', entry)),
      ),
    get: (name) => db.run('read the outbox', (d) => d.get('outbox', name)),
    all: () =>
      db.run('read the outbox', async (d) => {
        const entries = await d.getAll('outbox');
        return entries.sort((a, b) =>
          a.queuedAt < b.queuedAt ? -1 : a.queuedAt > b.queuedAt ? 1 : 0,
        );
      }),
    ackIfCurrent: (name, token) =>
      db.run('update the outbox', async (d) => {
        const tx = d.transaction('outbox', 'readwrite');
        const entry = await tx.store.get(name);
        const current = entry?.token === token;
        if (current) await tx.store.delete(name);
        await tx.done;
        return current;
      }),
    deadLetter: (letter) =>
      db.run('set a write aside', async (d) => {
        const tx = d.transaction(['outbox', 'dead-letters'], 'readwrite');
        const outbox = tx.objectStore('outbox');
        const entry = await outbox.get(letter.name);
        const current = entry?.token === letter.token;
        if (current) {
          await outbox.delete(letter.name);
          await tx.objectStore('dead-letters').put(letter);
        }
        await tx.done;
        return current;
      }),
    deadLetters: () =>
      db.run('read the dead letters', (d) => d.getAll('dead-letters')),
    discardDeadLetter: (name) =>
      db.run(
        'discard a dead letter',
        async (d) => void (await d.delete('dead-letters', name)),
      ),
    close: () => db.close(),
  };
}
