import type Database from 'better-sqlite3';
import { compareNames } from '../config-repository.js';
import type {
  HistoryRepository,
  RevisionSummary,
} from '../config-repository.js';
import { materialize } from '../log/history-read.js';
import { pruneHistory } from '../log/history-keep.js';
import {
  INSERT_COLUMNS,
  META_COLUMNS,
  ROW_COLUMNS,
  SUMMARY_COLUMNS,
  insertValues,
  metaOfRow,
  recordOfRow,
  summaryOfRow,
  tipOfRow,
} from '../log/history-rows.js';
import type { MetaRow, RevisionRow, SummaryRow } from '../log/history-rows.js';
import type { HistorySteps, HistoryTip } from '../log/revision-write.js';

/**
 * The history of the SQLite adapter: its write steps (run inside the write transaction) and its reads.
 * `locked` runs a statement under the write lock (the group commit), as a write that changes no config.
 */
export function createSqliteHistory(
  db: Database.Database,
  guard: <T>(fn: () => T) => Promise<T>,
  locked: (run: () => void) => Promise<void>,
): {
  readonly steps: Omit<HistorySteps, 'readCurrentJson'>;
  readonly reads: HistoryRepository;
} {
  const tip = db.prepare<[string], Parameters<typeof tipOfRow>[0]>(
    'SELECT rev, id, op, base, chain, links FROM revisions WHERE name = ? ORDER BY rev DESC LIMIT 1',
  );
  const insert = db.prepare(
    `INSERT INTO revisions (${INSERT_COLUMNS}) VALUES (${INSERT_COLUMNS.split(
      ',',
    )
      .map(() => '?')
      .join(', ')})`,
  );
  const summaries = db.prepare<
    [string, number, number],
    SummaryRow & { rev: number }
  >(
    `SELECT rev, ${SUMMARY_COLUMNS} FROM revisions WHERE name = ? AND rev >= ? AND rev <= ? AND added IS NOT NULL`,
  );
  const fillSummary = db.prepare<
    [number, number, number, number, string, number]
  >(
    `UPDATE revisions SET added = ?, removed = ?, changed = ?, links = ?
     WHERE name = ? AND rev = ? AND added IS NULL`,
  );
  const fillSummaries = db.transaction(
    (
      name: string,
      entries: Parameters<HistoryRepository['keepSummaries']>[1],
    ) => {
      for (const { rev, summary: s } of entries) {
        fillSummary.run(s.added, s.removed, s.changed, s.links, name, rev);
      }
    },
  );
  const page = db.prepare<[string, number, number], MetaRow>(
    `SELECT ${META_COLUMNS} FROM revisions WHERE name = ? AND rev < ? ORDER BY rev DESC LIMIT ?`,
  );
  const chainStart = db
    .prepare<[string, number], number>(
      'SELECT base FROM revisions WHERE name = ? AND rev >= ? AND base IS NOT NULL ORDER BY rev LIMIT 1',
    )
    .pluck();
  const range = db.prepare<[string, number, number], RevisionRow>(
    `SELECT ${ROW_COLUMNS} FROM revisions WHERE name = ? AND rev >= ? AND rev <= ? ORDER BY rev`,
  );
  const trail = db.prepare<[number, number], MetaRow>(
    `SELECT ${META_COLUMNS} FROM revisions WHERE id > ? ORDER BY id LIMIT ?`,
  );
  const trailOf = db.prepare<[string, number, number], MetaRow>(
    `SELECT ${META_COLUMNS} FROM revisions WHERE name = ? AND id > ? ORDER BY rev LIMIT ?`,
  );
  const deleted = db
    .prepare<[], string>(
      `SELECT name FROM revisions r WHERE op = 'delete'
       AND rev = (SELECT MAX(rev) FROM revisions WHERE name = r.name)`,
    )
    .pluck();
  const newest = db.prepare<[], { name: string; newest: number }>(
    'SELECT name, MAX(rev) AS newest FROM revisions GROUP BY name',
  );
  const firstSince = db
    .prepare<[string, number], number | null>(
      'SELECT MIN(rev) FROM revisions WHERE name = ? AND at >= ?',
    )
    .pluck();
  const deleteBelow = db.prepare<[string, number]>(
    'DELETE FROM revisions WHERE name = ? AND rev < ?',
  );
  const deleteEventsBeyond = db.prepare<[number]>(
    `DELETE FROM log_events WHERE id IN (
       SELECT id FROM (
         SELECT id, ROW_NUMBER() OVER (PARTITION BY name ORDER BY id DESC) AS n FROM log_events
       ) ranked WHERE n > ?)`,
  );
  const deleteEventsBefore = db.prepare<[number]>(
    'DELETE FROM log_events WHERE at < ?',
  );
  // One read transaction: the chain's rows come from one snapshot.
  const readRange = db.transaction((name: string, from: number, to: number) => {
    const start = Math.min(from, chainStart.get(name, from) ?? from);
    return range.all(name, start, to).map(recordOfRow);
  });
  return {
    steps: {
      readHistoryTip: (name): HistoryTip | null => {
        const row = tip.get(name);
        return row === undefined ? null : tipOfRow(row);
      },
      appendRevision: (record) => {
        insert.run(...insertValues(record));
      },
    },
    reads: {
      history: (name, { limit, before }) =>
        guard(() =>
          page
            .all(name, before ?? Number.MAX_SAFE_INTEGER, limit)
            .map(metaOfRow),
        ),
      revisions: async (name, { from, to }) =>
        materialize(await guard(() => readRange(name, from, to)), from, to),
      auditTrail: ({ afterId, limit, name }) =>
        guard(() =>
          (name === undefined
            ? trail.all(afterId, limit)
            : trailOf.all(name, afterId, limit)
          ).map(metaOfRow),
        ),
      deletedNames: () => guard(() => deleted.all().sort(compareNames)),
      summaries: (name, { from, to }) =>
        guard(() => {
          const found = new Map<number, RevisionSummary>();
          for (const row of summaries.all(name, from, to)) {
            const summary = summaryOfRow(row);
            if (summary !== null) found.set(row.rev, summary);
          }
          return found;
        }),
      keepSummaries: (name, entries) =>
        locked(() => fillSummaries(name, entries)),
      pruneHistory: (keep, now) =>
        pruneHistory(
          {
            names: () => guard(() => newest.all()),
            firstSince: (name, atMs) =>
              guard(() => firstSince.get(name, atMs) ?? null),
            chainBaseFrom: (name, rev) =>
              guard(() => chainStart.get(name, rev) ?? null),
            deleteBelow: (name, rev) =>
              guard(() => deleteBelow.run(name, rev).changes),
            deleteEventsBeyond: (count) =>
              guard(() => deleteEventsBeyond.run(count).changes),
            deleteEventsBefore: (atMs) =>
              guard(() => deleteEventsBefore.run(atMs).changes),
          },
          keep,
          now,
        ),
    },
  };
}
