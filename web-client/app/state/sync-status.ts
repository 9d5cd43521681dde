/**
 * What the page shows of the hybrid store's status, read from the per-name facts the store publishes
 * (so the page never reads the store's outbox): pending writes, refused writes, and whether the
 * conflicts need listing again. Pure functions.
 */
import type { HybridStatus } from '@linkconfig/web-client';

/** A pending write per config name: `save` or `remove`. */
export type PendingWrites = ReadonlyMap<string, 'save' | 'remove'>;

/** A write the server refused for good, as the status list shows it. */
export interface RefusedWrite {
  name: string;
  status: number;
  error: string;
}

/** The writes waiting for the server, by config name. */
export function pendingWrites(status: HybridStatus): PendingWrites {
  const pending = new Map<string, 'save' | 'remove'>();
  for (const [name, facts] of Object.entries(status.names))
    if (facts.pending) pending.set(name, facts.pending.op);
  return pending;
}

/** The writes the server refused, by name. */
export function refusedWrites(status: HybridStatus): RefusedWrite[] {
  const refused: RefusedWrite[] = [];
  for (const [name, facts] of Object.entries(status.names))
    if (facts.deadLetter)
      refused.push({
        name,
        status: facts.deadLetter.status,
        error: facts.deadLetter.error,
      });
  // The order the browser database keeps them in.
  return refused.sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
}

/**
 * Whether a name in conflict before or after changed between two statuses: a conflict came or went,
 * or the write of a name in conflict changed its local side.
 */
export function conflictsChanged(
  before: HybridStatus,
  after: HybridStatus,
): boolean {
  const names = new Set([
    ...Object.keys(before.names),
    ...Object.keys(after.names),
  ]);
  for (const name of names) {
    const was = before.names[name];
    const now = after.names[name];
    if ((was?.conflict || now?.conflict) && was !== now) return true;
  }
  return false;
}

/**
 * Whether the list itself (not only its markers) may have changed between two statuses: a write was
 * refused or met another version, or a removal was queued or went.
 */
export function listChanged(
  before: HybridStatus,
  after: HybridStatus,
): boolean {
  if (
    before.deadLetters !== after.deadLetters ||
    before.conflicts !== after.conflicts
  )
    return true;
  const was = pendingWrites(before);
  const now = pendingWrites(after);
  for (const [name, op] of was) {
    if (now.has(name)) continue;
    // A removal went, or a write ended otherwise than delivered (refused, in conflict).
    if (op === 'remove' || after.names[name] !== undefined) return true;
  }
  for (const [name, op] of now)
    if (op === 'remove' && was.get(name) !== 'remove') return true;
  return false;
}
