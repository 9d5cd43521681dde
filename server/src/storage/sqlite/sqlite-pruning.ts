import type { HistoryLimits } from '../config-repository.js';
import type { SqliteStatements } from './sqlite-statements.js';
import { ageScanSchedule } from '../write-rules.js';

/**
 * Keeps the change history within its bounds, inside the write transaction that just appended change
 * `id` at `at` (write-clock ms): drops every change beyond the count, and (once a second per connection,
 * since it reads the whole bounded table) every change older than the age limit, raising the pruned mark
 * that tells readers their position fell out of the history.
 */
export function createSqlitePruning(
  statements: SqliteStatements,
  limits: Required<HistoryLimits>,
): (id: number, at: number) => void {
  /** Highest pruned id this connection knows of; saves a write when nothing new falls out. */
  let knownPruned = 0;
  const ageScanDue = ageScanSchedule();
  return (id, at) => {
    let through = id - limits.maxCount;
    if (ageScanDue(at)) {
      const expired = statements.lastExpired.get(at - limits.maxAgeMs) ?? 0;
      through = Math.max(through, expired);
    }
    if (through > knownPruned) {
      statements.pruneThrough.run(through);
      statements.raisePruned.run(through, through);
      knownPruned = through;
    }
  };
}
