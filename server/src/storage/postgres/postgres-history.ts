import type pg from 'pg';
import { compareNames } from '../config-repository.js';
import type {
  HistoryRepository,
  RevisionSummary,
} from '../config-repository.js';
import { materialize } from '../log/history-read.js';
import { pruneHistory } from '../log/history-keep.js';
import {
  META_COLUMNS,
  ROW_COLUMNS,
  SUMMARY_COLUMNS,
  metaOfRow,
  recordOfRow,
  summaryOfRow,
} from '../log/history-rows.js';
import type { MetaRow, RevisionRow, SummaryRow } from '../log/history-rows.js';

type Query = <R extends pg.QueryResultRow>(
  text: string | pg.QueryConfig,
  values?: unknown[],
) => Promise<pg.QueryResult<R>>;

/**
 * The history reads of the PostgreSQL adapter, each one statement (one snapshot); `tables` are the quoted
 * revisions table and the table of the log's other entries (which pruning shortens too).
 */
export function createPostgresHistoryReads(
  query: Query,
  tables: { readonly revisions: string; readonly events: string },
): HistoryRepository {
  const { revisions, events } = tables;
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
    summaries: async (name, { from, to }) => {
      const { rows } = await query<SummaryRow & { rev: number }>(
        `SELECT rev, ${SUMMARY_COLUMNS} FROM ${revisions}
         WHERE name = $1 AND rev >= $2 AND rev <= $3 AND added IS NOT NULL`,
        [name, from, to],
      );
      const found = new Map<number, RevisionSummary>();
      for (const row of rows) {
        const summary = summaryOfRow(row);
        if (summary !== null) found.set(Number(row.rev), summary);
      }
      return found;
    },
    keepSummaries: async (name, entries) => {
      if (entries.length === 0) return;
      // One statement; a revision that has a summary (another instance filled it) keeps it.
      await query(
        `UPDATE ${revisions} r SET added = v.added, removed = v.removed, changed = v.changed, links = v.links
         FROM unnest($2::int[], $3::int[], $4::int[], $5::int[], $6::int[])
           AS v(rev, added, removed, changed, links)
         WHERE r.name = $1 AND r.rev = v.rev AND r.added IS NULL`,
        [
          name,
          entries.map((e) => e.rev),
          entries.map((e) => e.summary.added),
          entries.map((e) => e.summary.removed),
          entries.map((e) => e.summary.changed),
          entries.map((e) => e.summary.links),
        ],
      );
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
          deleteEventsBeyond: async (count) =>
            (
              await query(
                `DELETE FROM ${events} WHERE id IN (
                   SELECT id FROM (
                     SELECT id, ROW_NUMBER() OVER (PARTITION BY name ORDER BY id DESC) AS n FROM ${events}
                   ) ranked WHERE n > $1)`,
                [count],
              )
            ).rowCount ?? 0,
          deleteEventsBefore: async (atMs) =>
            (await query(`DELETE FROM ${events} WHERE at < $1`, [atMs]))
              .rowCount ?? 0,
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
