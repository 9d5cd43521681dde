/**
 * Checks of single records that {@link checkBackup} (`read-backup.ts`) runs while it reads a file: a
 * config's text as a `PUT` would check it, and the publish records against the revisions they name.
 */
import { createHash } from 'node:crypto';
import {
  LIMITS,
  findJsonInfidelity,
  validateLinkConfig,
} from '@linkconfig/shared';
import type { BackupPublish, BackupRevision } from '@linkconfig/shared';
import { etagOf } from '../storage/etag.js';
import { BackupFileError } from './backup-lines.js';

/** Makes the error of the line being read. */
export type Fail = (why: string) => Error;

/** The SHA-256 of a text, in hex. */
export const digest = (text: string): string =>
  createHash('sha256').update(text).digest('hex');

/** Refuses `json` (the text of `label`) unless a `PUT` would store it as written. */
export function checkConfigText(label: string, json: string, fail: Fail): void {
  let config: unknown;
  try {
    config = JSON.parse(json);
  } catch {
    throw fail(`${label} is not JSON`);
  }
  const unfaithful = findJsonInfidelity(json);
  if (unfaithful !== undefined) {
    throw fail(
      `${label} cannot be kept as written at ${unfaithful.path}: ${unfaithful.reason}`,
    );
  }
  const checked = validateLinkConfig(config, { maxDepth: LIMITS.nestingMax });
  if (!checked.ok) throw fail(`${label}: ${checked.error}`);
}

/** What is known of one publish record while the file is read. */
interface Pending {
  readonly record: BackupPublish;
  /** Where it is in the file (`<file>, line <n>`). */
  readonly at: string;
  /** A digest of its text, compared with the revision's. */
  readonly digest: string;
  /** Whether the revision it names was read, and held the same. */
  found: boolean;
}

/** The first and newest revision of a name that the file holds. */
interface Span {
  first: BackupRevision;
  last: BackupRevision;
}

/**
 * The publish records of a file, checked against its revisions. The records come after the configs and
 * before every revision (the order a snapshot gives), so while the revisions are read, the one each
 * record names is compared as it goes by: the same change id and time (its version and ETag), and the
 * same text. A record may name a revision that history's retention pruned (older than the first one the
 * file holds for its name: the record keeps the text, so it is still served), never one beyond the
 * newest, nor one that the file should hold and does not, nor a name without history in the file.
 */
export class PublishChecks {
  readonly #records = new Map<string, Pending>();
  readonly #spans = new Map<string, Span>();
  #revisionsSeen = false;

  /** How many records were read. */
  get count(): number {
    return this.#records.size;
  }

  /** Checks a publish record on its own (`at` names its line). */
  add(record: BackupPublish, at: string, fail: Fail): void {
    const label = `the publish record of "${record.name}"`;
    if (this.#revisionsSeen) {
      throw fail(`${label} comes after revisions (it belongs before them)`);
    }
    if (this.#records.has(record.name)) throw fail(`${label} comes twice`);
    const etag = etagOf({
      version: record.version,
      updatedAt: record.updatedAt,
    });
    if (record.etag !== etag) {
      throw fail(
        `${label} has the ETag ${record.etag}, its version and time give ${etag}`,
      );
    }
    checkConfigText(label, record.json, fail);
    this.#records.set(record.name, {
      record,
      at,
      digest: digest(record.json),
      found: false,
    });
  }

  /**
   * Takes a revision after its chain was applied: `text` gives that revision's text (read only when a
   * record names this revision).
   */
  revision(revision: BackupRevision, text: () => string, fail: Fail): void {
    this.#revisionsSeen = true;
    const span = this.#spans.get(revision.name);
    if (span === undefined) {
      this.#spans.set(revision.name, { first: revision, last: revision });
    } else span.last = revision;
    const pending = this.#records.get(revision.name);
    if (pending === undefined || pending.record.rev !== revision.rev) return;
    const { record } = pending;
    if (
      revision.content === null ||
      revision.id !== record.version ||
      revision.at !== record.updatedAt ||
      digest(text()) !== pending.digest
    ) {
      throw fail(
        `revision ${revision.rev} of "${revision.name}" does not hold what its publish record (${pending.at}) serves`,
      );
    }
    pending.found = true;
  }

  /** After the last record: refuses a record whose revision the file should hold and does not. */
  finish(): void {
    for (const { record, at, found } of this.#records.values()) {
      if (found) continue;
      const span = this.#spans.get(record.name);
      // Pruned: older than every kept revision, by number and by change id.
      const pruned =
        span !== undefined &&
        record.rev < span.first.rev &&
        record.version < span.first.id;
      if (!pruned) {
        throw new BackupFileError(
          `${at}: the publish record of "${record.name}" names revision ${record.rev}, which the file does not hold`,
        );
      }
    }
  }
}
