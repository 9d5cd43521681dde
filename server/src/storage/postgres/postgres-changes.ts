import type pg from 'pg';
import type { Change, ChangesPage } from '../config-repository.js';
import { changesPage } from '../write-rules.js';

/** A row of the changes page query: the revision row, joined to each change (none: `id` null). */
interface PageRow {
  head: string;
  pruned_through: string;
  id: string | null;
  name: string;
  op: Change['op'];
  etag: string | null;
  updated_at: string;
}

/**
 * Up to `limit` changes after `afterId` (see `ConfigRepository.changesSince`), read in one statement, so
 * one snapshot: the head, the pruned mark and the rows agree.
 */
export async function readChangesPage(
  query: (text: string, values: unknown[]) => Promise<pg.QueryResult<PageRow>>,
  tables: { readonly revision: string; readonly changes: string },
  page: { readonly afterId: number; readonly limit: number },
): Promise<ChangesPage> {
  const { rows } = await query(
    `SELECT r.value AS head, r.pruned_through, c.id, c.name, c.op, c.etag, c.updated_at
     FROM ${tables.revision} r LEFT JOIN LATERAL (
       SELECT * FROM ${tables.changes} WHERE id > $1 ORDER BY id LIMIT $2
     ) c ON true
     ORDER BY c.id`,
    [page.afterId, page.limit],
  );
  const first = rows[0];
  if (first === undefined) throw new Error('revision row missing');
  const marks = {
    head: Number(first.head),
    prunedThrough: Number(first.pruned_through),
  };
  return changesPage(page.afterId, marks, () =>
    rows
      .filter((row) => row.id !== null)
      .map((row) => ({
        id: Number(row.id),
        name: row.name,
        op: row.op,
        etag: row.etag,
        updatedAt: row.updated_at,
      })),
  );
}
