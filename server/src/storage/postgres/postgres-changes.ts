import type pg from 'pg';
import type { ChangesPage } from '../config-repository.js';
import { META_COLUMNS, metaOfRow } from '../log/history-rows.js';
import type { MetaRow } from '../log/history-rows.js';
import { changeOfRevision, changesPage } from '../write-rules.js';

/** A row of the log page query: the counter row, joined to each revision (none: `id` null). */
type PageRow = { head: string; horizon: string } & (
  MetaRow | { [K in keyof MetaRow]: null }
);

/**
 * Up to `limit` revisions after `after` (see `ConfigRepository.readLog`), read in one statement, so one
 * snapshot: the head, the horizon (the column `pruned_through`) and the rows agree.
 */
export async function readLogPage(
  query: (text: string, values: unknown[]) => Promise<pg.QueryResult<PageRow>>,
  tables: { readonly revision: string; readonly revisions: string },
  page: { readonly after: number; readonly limit: number },
): Promise<ChangesPage> {
  const columns = META_COLUMNS.split(', ')
    .map((c) => `l.${c}`)
    .join(', ');
  const { rows } = await query(
    `SELECT r.value AS head, r.pruned_through AS horizon, ${columns}
     FROM ${tables.revision} r LEFT JOIN LATERAL (
       SELECT ${META_COLUMNS} FROM ${tables.revisions} WHERE id > $1 ORDER BY id LIMIT $2
     ) l ON true
     ORDER BY l.id`,
    [page.after, page.limit],
  );
  const first = rows[0];
  if (first === undefined) throw new Error('revision row missing');
  const marks = { head: Number(first.head), horizon: Number(first.horizon) };
  return changesPage(page.after, marks, () =>
    rows.flatMap((row) =>
      row.id === null ? [] : [changeOfRevision(metaOfRow(row))],
    ),
  );
}
