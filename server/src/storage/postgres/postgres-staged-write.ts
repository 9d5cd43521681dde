import type pg from 'pg';
import type { Change } from '../config-repository.js';
import type { WriteTransaction } from '../config-write.js';
import type { Locked } from './postgres-write-lock.js';
import { ROW_COLUMNS, rowValues } from '../log/history-rows.js';

/** The quoted tables and the notification channel a write touches. */
export interface WriteTargets {
  readonly table: string;
  readonly revision: string;
  readonly changes: string;
  readonly revisions: string;
  readonly channel: string;
}

/** What the algorithm wrote, ready to be sent as one statement. */
export interface StagedWrite {
  /** The change it appended and when (write-clock ms). */
  readonly change: Change;
  readonly at: number;
  /** The statement: every staged step, the pruning of the history through `prunedThrough`, `NOTIFY`. */
  statement(prunedThrough: number): pg.QueryConfig;
}

/**
 * The write steps of the PostgreSQL adapter. Taking the lock already took the revision and read the
 * stored row after it (`lockForWrite`), so `readCurrent` and `nextRevision` answer from there; the rows
 * and the change the algorithm writes are staged, each as a data-modifying `WITH` step, and sent together
 * as one statement (one round trip per write). `staged()` is `null` when nothing was appended: the
 * transaction then rolls back, so no revision is spent on a change that did not happen.
 */
export function stageWrite(
  locked: Locked,
  targets: WriteTargets,
): { readonly tx: WriteTransaction; staged(): StagedWrite | null } {
  const { table, changes } = targets;
  const values: unknown[] = [];
  const param = (value: unknown): string => {
    values.push(value);
    return `$${values.length}`;
  };
  const steps: string[] = [];
  let appended: { change: Change; at: number } | null = null;
  let revisionTaken = false;
  const tx: WriteTransaction = {
    readCurrent: (name) => {
      if (name !== locked.name) throw new Error(`not locked: ${name}`);
      return locked.stored;
    },
    nextRevision: () => {
      if (revisionTaken) throw new Error('one revision per write');
      revisionTaken = true;
      return locked.revision;
    },
    writeRow: (row) => {
      steps.push(
        `INSERT INTO ${table} (name, json, created_at, updated_at, version)
         VALUES (${param(row.name)}, ${param(row.json)}, ${param(row.createdAt)},
           ${param(row.updatedAt)}, ${param(row.version)})
         ON CONFLICT (name) DO UPDATE SET json = EXCLUDED.json,
           updated_at = EXCLUDED.updated_at, version = EXCLUDED.version`,
      );
    },
    deleteRow: (name) => {
      steps.push(`DELETE FROM ${table} WHERE name = ${param(name)}`);
    },
    appendChange: (change, at) => {
      steps.push(
        `INSERT INTO ${changes} (id, name, op, etag, updated_at, at)
         VALUES (${param(change.id)}, ${param(change.name)}, ${param(change.op)},
           ${param(change.etag)}, ${param(change.updatedAt)}, ${param(at)})`,
      );
      appended = { change, at };
    },
    readHistoryTip: (name) => {
      if (name !== locked.name) throw new Error(`not locked: ${name}`);
      return locked.tip;
    },
    readCurrentJson: () => locked.json ?? '',
    appendRevision: (record) => {
      const params = rowValues(record).map(param).join(', ');
      steps.push(
        `INSERT INTO ${targets.revisions} (${ROW_COLUMNS}) VALUES (${params})`,
      );
    },
  };
  const statement = (change: Change, prunedThrough: number): pg.QueryConfig => {
    const mark = param(prunedThrough);
    const all = [
      ...steps,
      `DELETE FROM ${changes} WHERE id <= ${mark}`,
      `UPDATE ${targets.revision} SET pruned_through = ${mark} WHERE pruned_through < ${mark}`,
    ];
    // PostgreSQL delivers the notification at commit.
    const notify = `SELECT pg_notify('${targets.channel}', ${param(String(change.id))})`;
    return {
      text: `WITH ${all.map((step, i) => `s${i} AS (${step} RETURNING 1)`).join(',\n')}\n${notify}`,
      values,
    };
  };
  return {
    tx,
    staged: () => {
      if (appended === null) return null;
      const { change, at } = appended;
      return {
        change,
        at,
        statement: (prunedThrough) => statement(change, prunedThrough),
      };
    },
  };
}
