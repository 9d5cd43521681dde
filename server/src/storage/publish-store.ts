/**
 * Publish records in storage (docs/publishing.md): per config, the revision its published view serves
 * (with that revision's text, so the published view never depends on how long history keeps it), the
 * site origins allowed to read it, who published it and when; beside the configs in the same database
 * (`ConfigRepository.publish`), with one contract suite (`config-repository-publish.contract.ts`) that
 * every adapter runs. Each publish and unpublish changes the record and appends its entry to the one log
 * of changes (`ConfigRepository.appendEvent`: history, audit, change feed, webhooks) in one write
 * transaction, under the same lock and id counter as writes of configs: both are stored or neither.
 */
import type { Author } from '@linkconfig/shared';
import type { LogEvent, NewLogEvent } from './log-event.js';

/** A config's publish record as stored. */
export interface StoredPublish {
  readonly name: string;
  /** The revision published. */
  readonly rev: number;
  /** That revision's change id: the version the config had when it was the head. */
  readonly version: number;
  /** The revision's JSON text, as that write stored it. */
  readonly json: string;
  /** The config's creation time (ISO 8601 UTC with milliseconds). */
  readonly createdAt: string;
  /** The revision's write time: the published version's `updatedAt`. */
  readonly updatedAt: string;
  /** The revision's ETag. */
  readonly etag: string;
  /** Site origins allowed to read it from a browser; `null`: any. */
  readonly origins: readonly string[] | null;
  /** Whether `/published` leaves out links confirmed broken or unreachable (docs/publishing.md). */
  readonly hideBroken: boolean;
  readonly publishedAt: string;
  readonly publishedBy: Author | null;
}

/** Who published or unpublished, and in which request. */
export interface PublishOrigin {
  readonly at: string;
  readonly by: Author | null;
  readonly requestId?: string | undefined;
}

/** A name and the version its publish record serves. */
export interface PublishedVersion {
  readonly name: string;
  readonly version: number;
  /** Whether the record hides links confirmed broken (its served version may then be another). */
  readonly hideBroken: boolean;
}

/** Storage of publish records. */
export interface PublishStore {
  /** The record of `name`, or `null` when it is not published. */
  get(name: string): Promise<StoredPublish | null>;
  /**
   * The version the record of `name` serves, and whether it hides broken links (then the version served
   * may be another), or `null` when it is not published; no text is read (every published read checks
   * it before it uses the version it holds).
   */
  version(name: string): Promise<Omit<PublishedVersion, 'name'> | null>;
  /** Every published name with its version, sorted by code point; no text is read. */
  versions(): Promise<PublishedVersion[]>;
  /**
   * The site origins of each published name (`null`: any origin), or of `name` alone when given (an
   * empty map when it is not published); no text is read.
   */
  origins(name?: string): Promise<Map<string, readonly string[] | null>>;
  /**
   * Stores `record` as the name's publish record (replacing any) and appends its `publish` entry
   * ({@link publishLogEntry}) to the log, in one write transaction: both or neither.
   */
  set(record: StoredPublish, requestId?: string): Promise<LogEvent>;
  /**
   * Removes the record of `name` and appends its `unpublish` entry ({@link unpublishLogEntry}) to the
   * log, in one write transaction; `null` (nothing logged) when it had none.
   */
  remove(name: string, origin: PublishOrigin): Promise<LogEvent | null>;
}

/** The log entry of a publish: what was published, for which sites (webhooks and the feed read it). */
export function publishLogEntry(
  record: StoredPublish,
  requestId?: string,
): NewLogEvent {
  return {
    type: 'publish',
    name: record.name,
    by: record.publishedBy,
    requestId,
    detail: {
      rev: record.rev,
      version: record.version,
      etag: record.etag,
      origins: record.origins,
      hideBroken: record.hideBroken,
    },
    now: () => new Date(record.publishedAt),
  };
}

/** The log entry of an unpublish: the revision that was published. */
export function unpublishLogEntry(
  name: string,
  rev: number,
  origin: PublishOrigin,
): NewLogEvent {
  return {
    type: 'unpublish',
    name,
    by: origin.by,
    requestId: origin.requestId,
    detail: { rev },
    now: () => new Date(origin.at),
  };
}

/** The columns of a stored record, in the order the SQL adapters list them. */
export const PUBLISH_COLUMNS =
  'name, rev, version, json, created_at, updated_at, etag, origins, hide_broken, published_at, published_by';

/** A name's origins column as the SQL adapters read it. */
export interface OriginsRow {
  readonly name: string;
  readonly origins: string | null;
}

/** The origins of the rows, by name. */
export function originsOfRows(
  rows: readonly OriginsRow[],
): Map<string, readonly string[] | null> {
  return new Map(
    rows.map((row) => [
      row.name,
      row.origins === null ? null : (JSON.parse(row.origins) as string[]),
    ]),
  );
}

/** A stored record as the SQL adapters read it. */
export interface PublishRow {
  readonly name: string;
  readonly rev: number | string;
  readonly version: number | string;
  readonly json: string;
  readonly created_at: string;
  readonly updated_at: string;
  readonly etag: string;
  readonly origins: string | null;
  readonly hide_broken: number | boolean;
  readonly published_at: string;
  readonly published_by: string | null;
}

/** The row's values in {@link PUBLISH_COLUMNS} order. */
export function publishValues(record: StoredPublish): unknown[] {
  return [
    record.name,
    record.rev,
    record.version,
    record.json,
    record.createdAt,
    record.updatedAt,
    record.etag,
    record.origins === null ? null : JSON.stringify(record.origins),
    record.hideBroken ? 1 : 0,
    record.publishedAt,
    record.publishedBy === null ? null : JSON.stringify(record.publishedBy),
  ];
}

export function publishOfRow(row: PublishRow): StoredPublish {
  return {
    name: row.name,
    rev: Number(row.rev),
    version: Number(row.version),
    json: row.json,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    etag: row.etag,
    origins: originsOfRows([row]).get(row.name) ?? null,
    hideBroken: Number(row.hide_broken) === 1 || row.hide_broken === true,
    publishedAt: row.published_at,
    publishedBy:
      row.published_by === null
        ? null
        : (JSON.parse(row.published_by) as Author),
  };
}
