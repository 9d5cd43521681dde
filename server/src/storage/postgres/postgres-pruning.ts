import type { HistoryLimits } from '../config-repository.js';
import type { Locked } from './postgres-write-lock.js';
import { ageScanSchedule } from '../write-rules.js';

/**
 * The highest change id a write recorded at `at` (write-clock ms) prunes from the history: beyond the
 * count, or (once a second per instance, since it reads the whole bounded table) older than the age
 * limit; never below the mark already stored. Read inside the write's transaction.
 */
export function createPostgresPruning(
  changes: string,
  limits: Required<HistoryLimits>,
): (locked: Locked, at: number) => Promise<number> {
  const ageScanDue = ageScanSchedule();
  return async (locked, at) => {
    let through = Math.max(
      locked.prunedThrough,
      locked.revision - limits.maxCount,
    );
    if (ageScanDue(at)) {
      const { rows } = await locked.client.query<{ id: string | null }>(
        `SELECT MAX(id) AS id FROM ${changes} WHERE at < $1`,
        [at - limits.maxAgeMs],
      );
      through = Math.max(through, Number(rows[0]?.id ?? 0));
    }
    return through;
  };
}
