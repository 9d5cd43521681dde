/**
 * Link health in the SQLite file (`link_health`, sqlite-migrations.ts). A claim is one `BEGIN IMMEDIATE`
 * transaction (the due URLs read and leased together), so processes sharing the file never claim one URL
 * twice; other calls are single statements. Checks are rare next to config writes, so they take no part in
 * the configs' group commit.
 */
import type Database from 'better-sqlite3';
import type { LinkHealthRecord, LinkState } from '@linkconfig/shared';
import {
  LINK_HEALTH_COLUMNS,
  recordOfRow,
  rowValues,
  uncheckedRecord,
} from '../link-health-store.js';
import type {
  LinkClaim,
  LinkHealthRow,
  LinkHealthStore,
} from '../link-health-store.js';

/** The table, as one migration creates it. */
export const LINK_HEALTH_TABLE_SQL = `CREATE TABLE link_health (
     url TEXT PRIMARY KEY NOT NULL,
     host TEXT NOT NULL,
     state TEXT NOT NULL,
     since TEXT,
     checked_at TEXT,
     status INTEGER,
     final_url TEXT,
     reason TEXT,
     failing_since TEXT,
     failures INTEGER NOT NULL,
     next_at INTEGER NOT NULL,
     lease_owner TEXT,
     lease_until INTEGER
   ) WITHOUT ROWID;
   CREATE INDEX link_health_due ON link_health (next_at);
   CREATE INDEX link_health_state ON link_health (state);
   CREATE INDEX link_health_host ON link_health (host, lease_until)`;

/** Rows a statement takes at most through `json_each` (one parameter, any count). */
const urlsOf = (urls: readonly string[]): string => JSON.stringify(urls);

/** A {@link LinkHealthStore} on `db`; `guard` refuses calls once the repository is closed. */
export function createSqliteLinkHealth(
  db: Database.Database,
  guard: <T>(fn: () => T) => Promise<T>,
): LinkHealthStore {
  const placeholders = LINK_HEALTH_COLUMNS.split(',')
    .map(() => '?')
    .join(', ');
  const insertNew = db.prepare(
    `INSERT OR IGNORE INTO link_health (${LINK_HEALTH_COLUMNS}) VALUES (${placeholders})`,
  );
  const upsert = db.prepare(
    `INSERT OR REPLACE INTO link_health (${LINK_HEALTH_COLUMNS}) VALUES (${placeholders})`,
  );
  const remove = db.prepare<[string]>('DELETE FROM link_health WHERE url = ?');
  const selectUrls = db.prepare<[], { url: string }>(
    'SELECT url FROM link_health',
  );
  const selectMany = db.prepare<[string], LinkHealthRow>(
    `SELECT ${LINK_HEALTH_COLUMNS} FROM link_health WHERE url IN (SELECT value FROM json_each(?))`,
  );
  const selectStates = db.prepare<[string], LinkHealthRow>(
    `SELECT ${LINK_HEALTH_COLUMNS} FROM link_health WHERE state IN (SELECT value FROM json_each(?))`,
  );
  const selectAll = db.prepare<[], LinkHealthRow>(
    `SELECT ${LINK_HEALTH_COLUMNS} FROM link_health ORDER BY url`,
  );
  const schedule = db.prepare<[number, string]>(
    `UPDATE link_health SET next_at = MIN(next_at, ?), lease_owner = NULL, lease_until = NULL
     WHERE url IN (SELECT value FROM json_each(?))`,
  );
  // Due, not leased, not of a host another owner holds; at most `perHost` per host, earliest first.
  const selectDue = db.prepare<
    {
      now: number;
      owner: string;
      limit: number;
      perHost: number;
      busy: string;
      only: string | null;
    },
    LinkHealthRow
  >(
    `SELECT ${LINK_HEALTH_COLUMNS} FROM (
       SELECT *, ROW_NUMBER() OVER (PARTITION BY host ORDER BY next_at, url) AS n
       FROM link_health
       WHERE next_at <= @now
         AND (lease_until IS NULL OR lease_until <= @now)
         AND host NOT IN (
           SELECT host FROM link_health
           WHERE lease_until > @now AND lease_owner <> @owner
         )
         AND host NOT IN (SELECT value FROM json_each(@busy))
         AND (@only IS NULL OR url IN (SELECT value FROM json_each(@only)))
     )
     WHERE n <= @perHost
     ORDER BY next_at, url
     LIMIT @limit`,
  );
  const lease = db.prepare<[string, number, string]>(
    'UPDATE link_health SET lease_owner = ?, lease_until = ? WHERE url = ?',
  );
  const finish = db.prepare(
    `UPDATE link_health SET state = ?, since = ?, checked_at = ?, status = ?, final_url = ?,
       reason = ?, failing_since = ?, failures = ?, next_at = ?, lease_owner = NULL, lease_until = NULL
     WHERE url = ? AND lease_owner = ?`,
  );
  const track = db.transaction(
    (added: readonly string[], gone: readonly string[], now: number) => {
      for (const url of added)
        insertNew.run(...rowValues(uncheckedRecord(url, now)));
      for (const url of gone) remove.run(url);
    },
  );
  const selectCounts = db.prepare<[], { state: LinkState; n: number }>(
    'SELECT state, COUNT(*) AS n FROM link_health GROUP BY state',
  );
  const claim = db.transaction((c: LinkClaim) => {
    const rows = selectDue.all({
      now: c.now,
      owner: c.owner,
      limit: c.limit,
      perHost: c.perHost,
      busy: urlsOf(c.busyHosts ?? []),
      only: c.only === undefined ? null : urlsOf(c.only),
    });
    for (const row of rows) lease.run(c.owner, c.until, row.url);
    return rows.map(recordOfRow);
  });
  const completeAll = db.transaction(
    (records: readonly LinkHealthRecord[], owner: string) => {
      const stored = new Set<string>();
      for (const r of records) {
        const { changes } = finish.run(
          r.state,
          r.since,
          r.checkedAt,
          r.status,
          r.finalUrl,
          r.reason,
          r.failingSince,
          r.failures,
          r.nextAt,
          r.url,
          owner,
        );
        if (changes > 0) stored.add(r.url);
      }
      return stored;
    },
  );
  const putAll = db.transaction((records: readonly LinkHealthRecord[]) => {
    for (const record of records) upsert.run(...rowValues(record));
  });
  return {
    urls: () => guard(() => selectUrls.all().map((r) => r.url)),
    get: (urls) => guard(() => selectMany.all(urlsOf(urls)).map(recordOfRow)),
    withStates: (states) =>
      guard(() => selectStates.all(urlsOf(states)).map(recordOfRow)),
    track: (added, gone, now) =>
      guard(() => {
        track.immediate(added, gone, now);
      }),
    schedule: (urls, at) => guard(() => schedule.run(at, urlsOf(urls)).changes),
    claim: (c) => guard(() => claim.immediate(c)),
    complete: (records, owner) =>
      guard(() => completeAll.immediate(records, owner)),
    counts: () =>
      guard(() =>
        Object.fromEntries(selectCounts.all().map((r) => [r.state, r.n])),
      ),
    all: () => guard(() => selectAll.all().map(recordOfRow)),
    putAll: (records) =>
      guard(() => {
        putAll.immediate(records);
      }),
  };
}
