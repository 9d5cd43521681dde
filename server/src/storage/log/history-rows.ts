/**
 * Revision rows as the SQL adapters store them (`sqlite-history-schema.ts`, `postgres-history.ts`), and
 * their conversion to and from {@link RevisionRecord}: one mapping for both databases.
 */
import type {
  Change,
  LogEvent,
  RevisionMeta,
  RevisionSummary,
} from '../config-repository.js';
import { etagOf } from '../etag.js';
import { changeOfRevision, detailOf } from '../write-rules.js';
import { authorOf, authorText } from './revision-write.js';
import type { HistoryTip, RevisionRecord } from './revision-write.js';

/** A stored revision's facts (integers may come back as strings from PostgreSQL's bigint). */
export interface MetaRow {
  id: number | string;
  name: string;
  rev: number | string;
  op: RevisionMeta['op'];
  at: number | string;
  by: string | null;
  request_id: string | null;
  size: number | string | null;
}

/** A stored revision with its content columns. */
export interface RevisionRow extends MetaRow {
  base: number | string | null;
  head: number | string | null;
  tail: number | string | null;
  chain: number | string | null;
  data: Uint8Array | null;
}

/** The columns of {@link MetaRow}, for SELECT lists. */
export const META_COLUMNS = 'id, name, rev, op, at, by, request_id, size';
/** The columns of {@link RevisionRow}. */
export const ROW_COLUMNS = `${META_COLUMNS}, base, head, tail, chain, data`;
/** The columns of a revision's summary (`RevisionSummary`; all null: not summarized). */
export const SUMMARY_COLUMNS = 'added, removed, changed, links';
/** The columns a write inserts: {@link ROW_COLUMNS}, then {@link SUMMARY_COLUMNS} ({@link insertValues}). */
export const INSERT_COLUMNS = `${ROW_COLUMNS}, ${SUMMARY_COLUMNS}`;

/** A revision's summary columns. */
export interface SummaryRow {
  added: number | string | null;
  removed: number | string | null;
  changed: number | string | null;
  links: number | string | null;
}

const num = (value: number | string | null): number | null =>
  value === null ? null : Number(value);

/** The facts of a stored revision; its ETag follows from its change id and time, like every ETag. */
export function metaOfRow(row: MetaRow): RevisionMeta {
  const id = Number(row.id);
  const at = new Date(Number(row.at)).toISOString();
  return {
    name: row.name,
    rev: Number(row.rev),
    id,
    op: row.op,
    at,
    by: authorOf(row.by),
    requestId: row.request_id,
    etag: row.op === 'delete' ? null : etagOf({ version: id, updatedAt: at }),
    size: num(row.size),
  };
}

/** A stored revision with its content. */
export function recordOfRow(row: RevisionRow): RevisionRecord {
  const meta = metaOfRow(row);
  const base = num(row.base);
  return {
    meta,
    content:
      base === null || row.data === null
        ? null
        : {
            base,
            head: Number(row.head),
            tail: Number(row.tail),
            chain: Number(row.chain),
            data: row.data,
          },
  };
}

/** The values of a row to insert, in the order of {@link ROW_COLUMNS}. */
export function rowValues(record: RevisionRecord): unknown[] {
  const { meta, content } = record;
  return [
    meta.id,
    meta.name,
    meta.rev,
    meta.op,
    Date.parse(meta.at),
    authorText(meta.by),
    meta.requestId,
    meta.size,
    content?.base ?? null,
    content?.head ?? null,
    content?.tail ?? null,
    content?.chain ?? null,
    content === null ? null : Buffer.from(content.data),
  ];
}

/** The values of a row a write inserts, in the order of {@link INSERT_COLUMNS}. */
export function insertValues(record: RevisionRecord): unknown[] {
  const summary = record.summary ?? null;
  return [
    ...rowValues(record),
    summary?.added ?? null,
    summary?.removed ?? null,
    summary?.changed ?? null,
    summary?.links ?? null,
  ];
}

/** The summary of a row, `null` when it has none. */
export function summaryOfRow(row: SummaryRow): RevisionSummary | null {
  const { added, removed, changed, links } = row;
  if (added === null || removed === null || changed === null) return null;
  if (links === null) return null;
  return {
    added: Number(added),
    removed: Number(removed),
    changed: Number(changed),
    links: Number(links),
  };
}

/** The tip of a name from its newest row. */
export function tipOfRow(row: {
  rev: number | string;
  id: number | string;
  op: RevisionMeta['op'];
  base: number | string | null;
  chain: number | string | null;
  links: number | string | null;
}): HistoryTip {
  return {
    rev: Number(row.rev),
    id: Number(row.id),
    op: row.op,
    base: num(row.base),
    chain: Number(row.chain ?? 0),
    links: num(row.links),
  };
}

/** A row of the log read by the SQL adapters: a revision (`detail` null), or an event (`rev` 0, `op` its type). */
export type LogRow = MetaRow & { detail: string | null };

/** An entry of the log from its row: a write of a config, or another event (`appendEvent`). */
export function logEntryOfRow(row: LogRow): Change | LogEvent {
  if (Number(row.rev) !== 0) return changeOfRevision(metaOfRow(row));
  return {
    id: Number(row.id),
    type: row.op,
    name: row.name,
    at: new Date(Number(row.at)).toISOString(),
    by: authorOf(row.by),
    requestId: row.request_id,
    detail: detailOf(row.detail),
  };
}
