import type pg from 'pg';
import { compareNames } from '../config-repository.js';
import type { HistoryRepository } from '../config-repository.js';
import { materialize } from '../log/history-read.js';
import { pruneHistory } from '../log/history-keep.js';
import {
  META_COLUMNS,
  ROW_COLUMNS,
  metaOfRow,
  recordOfRow,
} from '../log/history-rows.js';
import type { MetaRow, RevisionRow } from '../log/history-rows.js';

type Query = <R extends pg.QueryResultRow>(
  text: string | pg.QueryConfig,
  values?: unknown[],
) => Promise<pg.QueryResult<R>>;

/** The history reads of the PostgreSQL adapter, each one statement (one snapshot). */
export function createPostgresHistoryReads(
  query: Query,
  revisions: string,
): HistoryRepository {
  return {
    history: async (name, { limit, before }) =>
      (
        await query<MetaRow>(
          `SELECT ${META_COLUMNS} FROM ${revisions} WHERE name = $1 AND rev < $2 ORDER BY rev DESC LIMIT $3`,
          [name, before ?? 2 ** 31 - 1, limit],
        )
      ).rows.map(metaOfRow),
    revisions: async (name, { from, to }) => {
      // From the keyframe of the first wanted revision's chain.
      const { rows } = await query<RevisionRow>(
        `SELECT ${ROW_COLUMNS} FROM ${revisions}
         WHERE name = $1 AND rev <= $3 AND rev >= LEAST($2, COALESCE((
           SELECT base FROM ${revisions}
           WHERE name = $1 AND rev >= $2 AND base IS NOT NULL ORDER BY rev LIMIT 1), $2))
         ORDER BY rev`,
        [name, from, to],
      );
      return materialize(rows.map(recordOfRow), from, to);
    },
    auditTrail: async ({ afterId, limit, name }) =>
      (name === undefined
        ? await query<MetaRow>(
            `SELECT ${META_COLUMNS} FROM ${revisions} WHERE id > $1 ORDER BY id LIMIT $2`,
            [afterId, limit],
          )
        : await query<MetaRow>(
            `SELECT ${META_COLUMNS} FROM ${revisions} WHERE name = $3 AND id > $1 ORDER BY rev LIMIT $2`,
            [afterId, limit, name],
          )
      ).rows.map(metaOfRow),
    pruneHistory: (keep, now) =>
      pruneHistory(
        {
          names: async () =>
            (
              await query<{ name: string; newest: number }>(
                `SELECT name, MAX(rev) AS newest FROM ${revisions} GROUP BY name`,
              )
            ).rows,
          firstSince: async (name, atMs) => {
            const { rows } = await query<{ rev: number | null }>(
              `SELECT MIN(rev) AS rev FROM ${revisions} WHERE name = $1 AND at >= $2`,
              [name, atMs],
            );
            return rows[0]?.rev ?? null;
          },
          chainBaseFrom: async (name, rev) => {
            const { rows } = await query<{ base: number }>(
              `SELECT base FROM ${revisions} WHERE name = $1 AND rev >= $2 AND base IS NOT NULL ORDER BY rev LIMIT 1`,
              [name, rev],
            );
            return rows[0]?.base ?? null;
          },
          deleteBelow: async (name, rev) =>
            (
              await query(
                `DELETE FROM ${revisions} WHERE name = $1 AND rev < $2`,
                [name, rev],
              )
            ).rowCount ?? 0,
        },
        keep,
        now,
      ),
    deletedNames: async () =>
      (
        await query<{ name: string }>(
          `SELECT name FROM ${revisions} r WHERE op = 'delete'
           AND rev = (SELECT MAX(rev) FROM ${revisions} WHERE name = r.name)`,
        )
      ).rows
        .map((r) => r.name)
        .sort(compareNames),
  };
}
