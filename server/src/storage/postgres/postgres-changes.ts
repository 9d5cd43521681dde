import type pg from 'pg';
import type { ChangesPage } from '../config-repository.js';
import { META_COLUMNS, logEntryOfRow } from '../log/history-rows.js';
import type { LogRow } from '../log/history-rows.js';
import { changesPage } from '../write-rules.js';

/** A row of the log page query: the counter row, joined to each revision (none: `id` null). */
type PageRow = { head: string; horizon: string } & (
  LogRow | { [K in keyof LogRow]: null }
);

/**
 * Up to `limit` revisions after `after` (see `ConfigRepository.readLog`), read in one statement, so one
 * snapshot: the head, the horizon (the column `pruned_through`) and the rows agree.
 */
export async function readLogPage(
  query: (text: string, values: unknown[]) => Promise<pg.QueryResult<PageRow>>,
  tables: {
    readonly revision: string;
    readonly revisions: string;
    readonly events: string;
  },
  page: { readonly after: number; readonly limit: number },
): Promise<ChangesPage> {
  const columns = [...META_COLUMNS.split(', '), 'detail']
    .map((c) => `l.${c}`)
    .join(', ');
  // Each table's first `limit` after the position, then the first `limit` of both.
  const { rows } = await query(
    `SELECT r.value AS head, r.pruned_through AS horizon, ${columns}
     FROM ${tables.revision} r LEFT JOIN LATERAL (
       SELECT * FROM (
         (SELECT ${META_COLUMNS}, NULL::text AS detail FROM ${tables.revisions}
          WHERE id > $1 ORDER BY id LIMIT $2)
         UNION ALL
         (SELECT id, name, 0 AS rev, type AS op, at, by, request_id, NULL::integer AS size, detail
          FROM ${tables.events} WHERE id > $1 ORDER BY id LIMIT $2)
       ) u ORDER BY id LIMIT $2
     ) l ON true
     ORDER BY l.id`,
    [page.after, page.limit],
  );
  const first = rows[0];
  if (first === undefined) throw new Error('revision row missing');
  const marks = { head: Number(first.head), horizon: Number(first.horizon) };
  return changesPage(page.after, marks, () =>
    rows.flatMap((row) => (row.id === null ? [] : [logEntryOfRow(row)])),
  );
}
