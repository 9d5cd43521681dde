import type { PublishInput, PublishRecord } from '@linkconfig/shared';
import {
  configNotFound,
  DomainError,
  PreconditionFailedError,
} from '../errors.js';
import type {
  ConfigRepository,
  LogEvent,
  StoredRevision,
} from '../storage/config-repository.js';
import { etagOf, matchesStrongly, parseEntityTags } from '../storage/etag.js';
import type { StoredPublish } from '../storage/publish-store.js';
import type { WriteOrigin } from './write-conditions.js';

/** What {@link PublishService} needs. */
export interface PublishServiceDeps {
  readonly repository: ConfigRepository;
  /** The server's clock. */
  readonly now: () => Date;
  /**
   * Told after each publish and unpublish is stored, with its entry of the log (purges of shared
   * caches). It runs in the background: what it does never delays nor fails the answer.
   */
  readonly onPublishEvent?: (event: LogEvent) => void;
}

/** A publish record as the API answers it. */
export function publishRecordOf(record: StoredPublish): PublishRecord {
  return {
    name: record.name,
    rev: record.rev,
    etag: record.etag,
    origins: record.origins === null ? null : [...record.origins],
    hideBroken: record.hideBroken,
    publishedAt: record.publishedAt,
    publishedBy: record.publishedBy,
  };
}

/**
 * The rules of publishing (docs/publishing.md): a config's head is its draft; publishing pins one of its
 * revisions (default the head; an older one is a rollback) as the version `/published` serves, with the
 * site origins allowed to read it; unpublishing removes it. The record keeps the revision's text, so what
 * is published never depends on how long history keeps that revision.
 */
export class PublishService {
  readonly #repo: ConfigRepository;
  readonly #now: () => Date;
  readonly #onEvent: ((event: LogEvent) => void) | undefined;

  constructor(deps: PublishServiceDeps) {
    this.#repo = deps.repository;
    this.#now = deps.now;
    this.#onEvent = deps.onPublishEvent;
  }

  /** The publish record of `name` (404 when it is not published). */
  async status(name: string): Promise<PublishRecord> {
    const record = await this.#repo.publish.get(name);
    if (record === null) {
      throw new DomainError('not_found', `config "${name}" is not published`);
    }
    return publishRecordOf(record);
  }

  /**
   * Publishes revision `input.rev` of `name` (default: the head). `ifMatch` must name the head's ETag
   * (the draft the publisher reviewed), else 412 and nothing changes. Origins absent keep the current
   * record's (any origin when there is none); `null` allows any origin. `hideBroken` absent keeps the
   * current record's (off when there is none). The record and its log entry are stored together.
   */
  async publish(
    name: string,
    input: Pick<PublishInput, 'rev' | 'origins' | 'ifMatch' | 'hideBroken'>,
    origin: WriteOrigin = {},
  ): Promise<PublishRecord> {
    const head = await this.#repo.get(name);
    if (head === null) throw configNotFound(name);
    const headEtag = etagOf(head);
    if (input.ifMatch !== undefined) {
      const tags = parseEntityTags(input.ifMatch);
      if (tags === null) {
        throw new DomainError(
          'invalid_request',
          'If-Match must be * or a list of quoted entity tags',
        );
      }
      if (!matchesStrongly(tags, headEtag)) {
        throw new PreconditionFailedError(
          headEtag,
          `config "${name}" has changed: the stored version is ${headEtag}`,
        );
      }
    }
    const revision = await this.#revision(name, input.rev, head);
    const previous =
      input.origins === undefined || input.hideBroken === undefined
        ? await this.#repo.publish.get(name)
        : null;
    const record: StoredPublish = {
      name,
      rev: revision.meta.rev,
      version: revision.meta.id,
      json: revision.json,
      createdAt: head.createdAt,
      updatedAt: revision.meta.at,
      etag: etagOf({ version: revision.meta.id, updatedAt: revision.meta.at }),
      origins:
        input.origins === undefined
          ? (previous?.origins ?? null)
          : input.origins === null
            ? null
            : [...new Set(input.origins)],
      hideBroken: input.hideBroken ?? previous?.hideBroken ?? false,
      publishedAt: this.#now().toISOString(),
      publishedBy: origin.author ?? null,
    };
    const event = await this.#repo.publish.set(record, origin.requestId);
    this.#onEvent?.(event);
    return publishRecordOf(record);
  }

  /** Unpublishes `name`; answers the revision that was published (`null`: none was). */
  async unpublish(
    name: string,
    origin: WriteOrigin = {},
  ): Promise<{ name: string; rev: number | null }> {
    const event = await this.#repo.publish.remove(name, {
      at: this.#now().toISOString(),
      by: origin.author ?? null,
      requestId: origin.requestId,
    });
    if (event === null) return { name, rev: null };
    this.#onEvent?.(event);
    return { name, rev: (event.detail as { rev: number }).rev };
  }

  /**
   * Which published names a page on `origin` may read (docs/publishing.md#origins): those whose record
   * allows any origin or lists this one. With `name`, only that name's record is read (every other name
   * is then refused); without, every record's origins (no text).
   */
  async originAllows(
    origin: string,
    name?: string,
  ): Promise<(name: string) => boolean> {
    const origins = await this.#repo.publish.origins(name);
    return (candidate) => {
      const allowed = origins.get(candidate);
      return (
        allowed !== undefined && (allowed === null || allowed.includes(origin))
      );
    };
  }

  /** The revision to publish with its text: the head's (as just read) or a kept older one. */
  async #revision(
    name: string,
    rev: number | undefined,
    head: { readonly json: string; readonly version: number },
  ): Promise<StoredRevision & { json: string }> {
    const [newest] = await this.#repo.history(name, { limit: 1 });
    const wanted = rev ?? newest?.rev;
    if (
      newest !== undefined &&
      wanted === newest.rev &&
      newest.id === head.version
    ) {
      return { meta: newest, json: head.json };
    }
    const [found] =
      wanted === undefined
        ? []
        : await this.#repo.revisions(name, { from: wanted, to: wanted });
    if (found === undefined || found.json === null) {
      throw new DomainError(
        'not_found',
        `config "${name}" has no revision ${String(wanted)} with content`,
      );
    }
    return { meta: found.meta, json: found.json };
  }
}
