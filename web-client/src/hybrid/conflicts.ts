/**
 * Conflicts of a hybrid store: a local write the server refused with 412 because it holds a version the
 * write was not based on. Neither side is lost: the local value stays, the server's is kept beside it,
 * and someone decides — the app's `onConflict` callback at once, or later through `resolveConflict`.
 */
import type {
  ConflictResolution,
  LinkConfig,
  MergeConflict,
} from '@linkconfig/shared';
import {
  isPlainObject,
  resolveConflicts,
  sanitizeConfigLinks,
  threeWayMerge,
} from '@linkconfig/shared';
import type { RemoteOperation } from '../config-store.js';
import type { ConflictRecord, Settlement } from '../indexeddb/outbox.js';
import type { Replica } from './replica.js';

/**
 * How to end a conflict: send the local value again over the server's (`keep-local`), drop the local
 * change (`take-remote`), send a merged config, or settle each conflict of the three-way merge
 * (`{ resolutions }`, one per entry of `Conflict.conflicts`; one left out keeps the local value) and
 * send the merge with everything else both sides changed.
 */
export type ConflictChoice =
  | 'keep-local'
  | 'take-remote'
  | LinkConfig
  | { resolutions: ConflictResolution[] };

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
  /**
   * The server version the local change started from (`null`: none), or `undefined` when unknown
   * (then `conflicts` is empty and only the whole-config answers apply).
   */
  base: LinkConfig | null | undefined;
  /** What truly conflicts: the paths both sides changed differently, with the three values. */
  conflicts: MergeConflict[];
  /**
   * The three-way merge: every change of either side, the local value where they conflict; `undefined`
   * when the base is unknown.
   */
  merged: LinkConfig | null | undefined;
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
  const remote = record.remote?.config ?? null;
  const merge = mergeOf(record);
  return {
    name: record.name,
    local: record.local,
    remote,
    remoteUpdatedAt: record.remote?.meta.updatedAt ?? null,
    detectedAt: record.detectedAt,
    base: record.base,
    conflicts: merge ? [...merge.conflicts] : [],
    merged: merge?.merged,
  };
}

/** The three-way merge of a conflict, when its base is known. */
function mergeOf(record: ConflictRecord) {
  // As for a clean merge (`auto-merge.ts`): only edits of a version both sides saw are merged.
  if (record.base === undefined || record.base === null) return undefined;
  // Compared as the server answers configs: links sanitized (the remote side came from a read).
  const base = sanitizeConfigLinks(record.base);
  return threeWayMerge<LinkConfig>(
    base,
    record.local,
    record.remote?.config ?? null,
  );
}

const newToken = () =>
  `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;

/** Creates the conflict handling of a store. */
export function createConflicts(options: ConflictsOptions): Conflicts {
  const { replica } = options;
  const asking = new Set<string>();

  const find = async (name: string) =>
    (await replica.outbox.conflicts()).find((c) => c.name === name);

  const resolve = async (name: string, answer: ConflictChoice) => {
    const choice = isResolutions(answer)
      ? await resolvedMerge(name, answer.resolutions)
      : answer;
    if (choice === undefined) return;
    const settlement = settlementOf(choice);
    const settled = await replica.settleConflict(name, settlement);
    if (!settled) return;
    // Keeping the local value changes nothing here; the other two replace it.
    if (choice !== 'keep-local') options.changed(name);
    options.settled();
  };

  /** The merge with each conflict settled; `undefined` when `name` has no conflict (any more). */
  const resolvedMerge = async (
    name: string,
    resolutions: ConflictResolution[],
  ): Promise<LinkConfig | 'take-remote' | 'keep-local' | undefined> => {
    const record = await find(name);
    if (!record) return undefined;
    const merge = mergeOf(record);
    if (merge === undefined) {
      throw new TypeError(
        `The conflict of "${name}" has no known base; answer 'keep-local', 'take-remote' or a config`,
      );
    }
    const config = resolveConflicts(merge, resolutions);
    // Resolved to "removed": the side that removed it is the answer.
    if (config === null)
      return record.remote === null ? 'take-remote' : 'keep-local';
    return config;
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

/** Whether an answer settles conflict by conflict. */
function isResolutions(
  choice: ConflictChoice,
): choice is { resolutions: ConflictResolution[] } {
  return (
    isPlainObject(choice) &&
    Array.isArray(choice['resolutions']) &&
    !('allLinks' in choice)
  );
}

/** The settlement for a choice; rejects anything that is not one. */
function settlementOf(
  choice: Exclude<ConflictChoice, { resolutions: ConflictResolution[] }>,
): Settlement {
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
