import type pg from 'pg';
import type { ChangesPage } from '../config-repository.js';
import { META_COLUMNS, logEntryOfRow } from '../log/history-rows.js';
import type { LogRow } from '../log/history-rows.js';
import { changesPage } from '../write-rules.js';

/** A row of the log page query: the counter row, joined to each revision (none: `id` null). */
type PageRow = { head: string; horizon: string } & (
  LogRow | { [K in keyof LogRow]: null }
);

/** The tables the log page query reads. */
export interface LogTables {
  readonly revision: string;
  readonly revisions: string;
  readonly events: string;
}

/**
 * The log page query: `$1` the position, `$2` the page size. Each table's first `$2` after the position,
 * then the first `$2` of both, joined to the counter row (the head, and the horizon in `pruned_through`).
 *
 * The planner's estimate must stay bounded by the page size whatever the tables' statistics say: above
 * `jit_above_cost` (100,000 by default) PostgreSQL compiles the query to machine code before running it,
 * 10–40 ms of compiling for a query that runs in a tenth of a millisecond, on every read of the feed. On
 * tables not yet analyzed (a new database, or before autovacuum came by), the counter row is guessed at
 * some 1,800 rows and the join at 450,000, so the counter is read through `LIMIT 1`, which the planner
 * takes as one row. The page does not depend on the counter, so no `LATERAL` is needed.
 */
export function logPageQuery(tables: LogTables): string {
  const columns = [...META_COLUMNS.split(', '), 'detail']
    .map((c) => `l.${c}`)
    .join(', ');
  return `SELECT r.value AS head, r.pruned_through AS horizon, ${columns}
     FROM (SELECT value, pruned_through FROM ${tables.revision} LIMIT 1) r LEFT JOIN (
       SELECT * FROM (
         (SELECT ${META_COLUMNS}, NULL::text AS detail FROM ${tables.revisions}
          WHERE id > $1 ORDER BY id LIMIT $2)
         UNION ALL
         (SELECT id, name, 0 AS rev, type AS op, at, by, request_id, NULL::integer AS size, detail
          FROM ${tables.events} WHERE id > $1 ORDER BY id LIMIT $2)
       ) u ORDER BY id LIMIT $2
     ) l ON true
     ORDER BY l.id`;
}

/**
 * Up to `limit` revisions after `after` (see `ConfigRepository.readLog`), read in one statement, so one
 * snapshot: the head, the horizon (the column `pruned_through`) and the rows agree.
 */
export async function readLogPage(
  query: (text: string, values: unknown[]) => Promise<pg.QueryResult<PageRow>>,
  tables: LogTables,
  page: { readonly after: number; readonly limit: number },
): Promise<ChangesPage> {
  const { rows } = await query(logPageQuery(tables), [page.after, page.limit]);
  const first = rows[0];
  if (first === undefined) throw new Error('revision row missing');
  const marks = { head: Number(first.head), horizon: Number(first.horizon) };
  return changesPage(page.after, marks, () =>
    rows.flatMap((row) => (row.id === null ? [] : [logEntryOfRow(row)])),
  );
}
