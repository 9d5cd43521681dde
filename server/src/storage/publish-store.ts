/**
 * Publish records in storage (docs/publishing.md): per config, the revision its published view serves
 * (with that revision's text, so the published view never depends on how long history keeps it), the
 * site origins allowed to read it, who published it and when; beside the configs in the same database
 * (`ConfigRepository.publish`), with one contract suite (`config-repository-publish.contract.ts`) that
 * every adapter runs. Each publish and unpublish is also appended to a log of publish events in the same
 * transaction, which the published view's state token reads; `PublishService` also appends each one to the
one log of changes (`ConfigRepository.appendEvent`), where webhooks and the change feed read it.
 */
import type { Author } from '@linkconfig/shared';

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
  readonly publishedAt: string;
  readonly publishedBy: Author | null;
}

/** One publish or unpublish, as the log of publish events keeps it. */
export interface PublishEvent {
  /** Increasing per database, never reused. */
  readonly id: number;
  readonly name: string;
  readonly op: 'publish' | 'unpublish';
  /** The revision published (for an unpublish: the one that was). */
  readonly rev: number;
  readonly at: string;
  readonly by: Author | null;
  readonly requestId: string | null;
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
}

/** Storage of publish records. */
export interface PublishStore {
  /** The record of `name`, or `null` when it is not published. */
  get(name: string): Promise<StoredPublish | null>;
  /**
   * The version the record of `name` serves, or `null` when it is not published; no text is read (every
   * published read checks it before it uses the version it holds).
   */
  version(name: string): Promise<number | null>;
  /** Every published name with its version, sorted by code point; no text is read. */
  versions(): Promise<PublishedVersion[]>;
  /** Stores `record` as the name's publish record (replacing any) and logs the publish, in one transaction. */
  set(record: StoredPublish, requestId?: string): Promise<PublishEvent>;
  /** Removes the record of `name` and logs the unpublish; `null` (nothing logged) when it had none. */
  remove(name: string, origin: PublishOrigin): Promise<PublishEvent | null>;
  /** Up to `limit` publish events with an id above `afterId`, oldest first. */
  events(afterId: number, limit: number): Promise<PublishEvent[]>;
  /** The id of the latest publish event (0: none): moves on every publish and unpublish, in any process. */
  head(): Promise<number>;
}

/** The columns of a stored record, in the order the SQL adapters list them. */
export const PUBLISH_COLUMNS =
  'name, rev, version, json, created_at, updated_at, etag, origins, published_at, published_by';

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
  readonly published_at: string;
  readonly published_by: string | null;
}

/** A publish event as the SQL adapters read it. */
export interface PublishEventRow {
  readonly id: number | string;
  readonly name: string;
  readonly op: string;
  readonly rev: number | string;
  readonly at: string;
  readonly by: string | null;
  readonly request_id: string | null;
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
    origins:
      row.origins === null ? null : (JSON.parse(row.origins) as string[]),
    publishedAt: row.published_at,
    publishedBy:
      row.published_by === null
        ? null
        : (JSON.parse(row.published_by) as Author),
  };
}

export function eventOfRow(row: PublishEventRow): PublishEvent {
  return {
    id: Number(row.id),
    name: row.name,
    op: row.op === 'unpublish' ? 'unpublish' : 'publish',
    rev: Number(row.rev),
    at: row.at,
    by: row.by === null ? null : (JSON.parse(row.by) as Author),
    requestId: row.request_id,
  };
}

/** An event's values: name, op, rev, at, by, request_id. */
export function eventValues(
  event: Omit<PublishEvent, 'id'>,
): [string, string, number, string, string | null, string | null] {
  return [
    event.name,
    event.op,
    event.rev,
    event.at,
    event.by === null ? null : JSON.stringify(event.by),
    event.requestId,
  ];
}
