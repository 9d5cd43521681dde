import type pg from 'pg';
import type { WriteTransaction } from '../config-write.js';
import type { Locked } from './postgres-write-lock.js';
import { INSERT_COLUMNS, insertValues } from '../log/history-rows.js';
import { authorText } from '../log/revision-write.js';
import { textOf } from '../stored-text.js';

/** The quoted tables a write touches. */
export interface WriteTargets {
  readonly table: string;
  readonly revision: string;
  readonly revisions: string;
  readonly events: string;
}

/**
 * The write steps of the PostgreSQL adapter. Taking the lock already took the revision and read the
 * stored row after it (`lockForWrite`), so `readCurrent` and `nextRevision` answer from there; the row
 * and the revision (the log) the algorithm writes are staged, each as a data-modifying `WITH` step, and
 * sent together as one statement (one round trip per write). `staged()` is `null` when nothing was
 * appended: the transaction then rolls back, so no revision is spent on a change that did not happen.
 */
export function stageWrite(
  locked: Locked,
  targets: WriteTargets,
): {
  readonly tx: WriteTransaction;
  /** Stages one more data-modifying statement of the same write (`param` adds a value). */
  step(build: (param: (value: unknown) => string) => string): void;
  staged(): pg.QueryConfig | null;
} {
  const { table } = targets;
  const values: unknown[] = [];
  const param = (value: unknown): string => {
    values.push(value);
    return `$${values.length}`;
  };
  const steps: string[] = [];
  let appended = false;
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
         VALUES (${param(row.name)}, ${param(textOf(row.json))}, ${param(row.createdAt)},
           ${param(row.updatedAt)}, ${param(row.version)})
         ON CONFLICT (name) DO UPDATE SET json = EXCLUDED.json,
           updated_at = EXCLUDED.updated_at, version = EXCLUDED.version`,
      );
    },
    deleteRow: (name) => {
      steps.push(`DELETE FROM ${table} WHERE name = ${param(name)}`);
    },
    appendEvent: (event) => {
      steps.push(
        `INSERT INTO ${targets.events} (id, name, type, at, by, request_id, detail)
         VALUES (${param(event.id)}, ${param(event.name)}, ${param(event.type)},
           ${param(Date.parse(event.at))}, ${param(authorText(event.by))},
           ${param(event.requestId)}, ${param(JSON.stringify(event.detail))})`,
      );
      appended = true;
    },
    readHistoryTip: (name) => {
      if (name !== locked.name) throw new Error(`not locked: ${name}`);
      return locked.tip;
    },
    readCurrentJson: (name) => {
      // Read under the lock whenever a write can ask for it (`lockForWrite`).
      if (name !== locked.name || locked.json === null) {
        throw new Error(`stored text of ${name} not read`);
      }
      return locked.json;
    },
    appendRevision: (record) => {
      const params = insertValues(record).map(param).join(', ');
      steps.push(
        `INSERT INTO ${targets.revisions} (${INSERT_COLUMNS}) VALUES (${params})`,
      );
      appended = true;
    },
  };
  /** Every step but the last as a `WITH` part, then the last: one statement. */
  const statement = (): string => {
    const before = steps.slice(0, -1);
    const last = steps.at(-1) ?? '';
    if (before.length === 0) return last;
    const parts = before.map((step, i) => `s${i} AS (${step} RETURNING 1)`);
    return `WITH ${parts.join(',\n')}\n${last}`;
  };
  return {
    tx,
    step: (build) => {
      steps.push(build(param));
    },
    staged: () => (appended ? { text: statement(), values } : null),
  };
}
