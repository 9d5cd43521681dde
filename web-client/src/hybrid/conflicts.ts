/**
 * Conflicts of a hybrid store: a local write the server refused with 412 because it holds a version the
 * write was not based on. Neither side is lost: the local value stays, the server's is kept beside it,
 * and someone decides — the app's `onConflict` callback at once, or later through `resolveConflict`.
 */
import type { LinkConfig } from '@linkconfig/shared';
import { isPlainObject } from '@linkconfig/shared';
import type { RemoteOperation } from '../config-store.js';
import type { ConflictRecord, Settlement } from './outbox.js';
import type { Replica } from './replica.js';

/**
 * How to end a conflict: send the local value again over the server's (`keep-local`), drop the local
 * change (`take-remote`), or send a merged config.
 */
export type ConflictChoice = 'keep-local' | 'take-remote' | LinkConfig;

/** A conflict as the app sees it. */
export interface Conflict {
  name: string;
  /** The local change: a config, or `null` for a remove. */
  local: LinkConfig | null;
  /** What the server holds, or `null` when it has no such config (someone removed it). */
  remote: LinkConfig | null;
  /** `meta.updatedAt` of the server's version, or `null` when it has none. */
  remoteUpdatedAt: string | null;
  /** When the conflict was found (ISO 8601). */
  detectedAt: string;
}

/** Decides a conflict as soon as it is found; may ask the user (return a promise). */
export type ConflictHandler = (
  name: string,
  conflict: Conflict,
) => ConflictChoice | Promise<ConflictChoice>;

/** What conflict handling needs from the store. */
export interface ConflictsOptions {
  replica: Replica;
  onConflict?: ConflictHandler;
  report: (op: RemoteOperation, name: string, error: unknown) => void;
  /** Tells listeners that the local copy of a name changed. */
  changed: (name: string) => void;
  /** Called after a conflict ended: recompute the status and deliver what was queued. */
  settled: () => void;
}

/** The conflict operations of a hybrid store. */
export interface Conflicts {
  list(): Promise<Conflict[]>;
  /** Ends the conflict of `name` with `choice`; a name without a conflict is a no-op. */
  resolve(name: string, choice: ConflictChoice): Promise<void>;
  /** A conflict was found: hand it to `onConflict`, if there is one. Never rejects. */
  offer(name: string): Promise<void>;
  /** Hands every waiting conflict to `onConflict` (after a restart). */
  offerAll(): Promise<void>;
  /** Whether `onConflict` is still deciding about `name`. */
  deciding(name: string): boolean;
}

/** The public view of a stored conflict. */
export function toConflict(record: ConflictRecord): Conflict {
  return {
    name: record.name,
    local: record.local,
    remote: record.remote?.config ?? null,
    remoteUpdatedAt: record.remote?.meta.updatedAt ?? null,
    detectedAt: record.detectedAt,
  };
}

const newToken = () =>
  `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;

/** Creates the conflict handling of a store. */
export function createConflicts(options: ConflictsOptions): Conflicts {
  const { replica } = options;
  const asking = new Set<string>();

  const find = async (name: string) =>
    (await replica.outbox.conflicts()).find((c) => c.name === name);

  const resolve = async (name: string, choice: ConflictChoice) => {
    const settlement = settlementOf(choice);
    const settled = await replica.settleConflict(name, settlement);
    if (!settled) return;
    // Keeping the local value changes nothing here; the other two replace it.
    if (choice !== 'keep-local') options.changed(name);
    options.settled();
  };

  const offer = async (name: string) => {
    const { onConflict } = options;
    if (!onConflict || asking.has(name)) return;
    asking.add(name);
    let op: RemoteOperation = 'save';
    try {
      const record = await find(name);
      if (!record) return;
      if (record.local === null) op = 'remove';
      await resolve(name, await onConflict(name, toConflict(record)));
    } catch (error) {
      // The callback failed or answered nonsense: the conflict waits for resolveConflict().
      options.report(op, name, error);
    } finally {
      asking.delete(name);
      options.settled();
    }
  };

  return {
    list: async () => (await replica.outbox.conflicts()).map(toConflict),
    resolve,
    offer,
    async offerAll() {
      if (!options.onConflict) return;
      try {
        const records = await replica.outbox.conflicts();
        await Promise.all(records.map((record) => offer(record.name)));
      } catch {
        // Reading the conflicts failed; they stay listed for resolveConflict().
      }
    },
    deciding: (name) => asking.has(name),
  };
}

/** The settlement for a choice; rejects anything that is not one. */
function settlementOf(choice: ConflictChoice): Settlement {
  if (choice === 'take-remote') return { kind: 'take-remote' };
  const config =
    choice === 'keep-local' ? undefined : isPlainObject(choice) ? choice : null;
  if (config === null)
    throw new TypeError(
      `A conflict is resolved with 'keep-local', 'take-remote' or a config, not ${String(choice)}`,
    );
  const fresh = { token: newToken(), queuedAt: new Date().toISOString() };
  return config === undefined
    ? { kind: 'keep-local', ...fresh }
    : { kind: 'merge', config, ...fresh };
}
