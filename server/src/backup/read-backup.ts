/**
 * Reading a backup file (docs/import-export.md#backups): its records one line at a time, each checked
 * against its schema, and {@link checkBackup}, which checks the whole file before a restore writes
 * anything: every config as a `PUT` would check it, every revision chain replayed to its newest text
 * (which must be the config's stored text), the end record's counts.
 */
import {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  BackupRecordSchema,
  findJsonInfidelity,
} from '@linkconfig/shared';
import type {
  BackupConfig,
  BackupKey,
  BackupLink,
  BackupHook,
  BackupPublish,
  BackupRevision,
} from '@linkconfig/shared';
import { DEFAULT_BODY_LIMIT } from '../config/limits.js';
import { describeIssues, issuesOf } from '../errors.js';
import {
  ChainReader,
  RevisionContentError,
} from '../storage/log/revision-content.js';
import { revisionOf } from './backup-rows.js';
import { PublishChecks, checkConfigText, digest } from './backup-checks.js';
import { BackupFileError, maxLineLength, readLines } from './backup-lines.js';

/** The kinds of record this version restores; a file with others is refused, never restored in part. */
const KNOWN_KINDS = new Set([
  'header',
  'config',
  'revision',
  'publish',
  'key',
  'link',
  'hook',
  'end',
]);

/** The first format version with publish records. */
const PUBLISH_VERSION = 5;

/** A data record of a file, with its line (1-based) and the file's format version. */
export interface BackupLine {
  readonly line: number;
  readonly version: number;
  readonly record:
    | BackupConfig
    | BackupRevision
    | BackupPublish
    | BackupKey
    | BackupLink
    | BackupHook;
}

/**
 * The checked data records of a backup file, one line at a time; `maxConfigBytes` bounds its lines
 * ({@link maxLineLength}); `onBytes` hears how many bytes of the file are read so far.
 */
export async function* readRecords(
  file: string,
  maxConfigBytes: number = DEFAULT_BODY_LIMIT,
  onBytes?: (bytesRead: number) => void,
): AsyncGenerator<BackupLine> {
  let line = 0;
  let version = 0;
  let ended = false;
  const counts: Record<string, number> = {};
  for await (const text of readLines(
    file,
    maxLineLength(maxConfigBytes),
    onBytes,
  )) {
    line++;
    if (text.trim() === '') continue;
    const fail = (why: string): BackupFileError =>
      new BackupFileError(`${file}, line ${line}: ${why}`);
    if (ended) throw fail('there is more after the end record');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw fail('not a JSON record');
    }
    // As for every body the API reads: a repeated key would let its last value win unseen (a revoked
    // key's `"revokedAt":null` after its date), an out-of-range number would change on the way in.
    const unfaithful = findJsonInfidelity(text);
    if (unfaithful !== undefined) {
      throw fail(`${unfaithful.path}: ${unfaithful.reason}`);
    }
    const kind = (value as { kind?: unknown } | null)?.kind;
    if (typeof kind !== 'string' || !KNOWN_KINDS.has(kind)) {
      throw fail(
        `records of kind ${JSON.stringify(kind)} are not known to this version of linkconfig (restore with the version that wrote the backup)`,
      );
    }
    const parsed = BackupRecordSchema.safeParse(value);
    if (!parsed.success) {
      throw fail(
        `a broken ${kind} record (${describeIssues(issuesOf(parsed.error) ?? [])})`,
      );
    }
    const record = parsed.data;
    if (version === 0 && record.kind !== 'header') {
      throw fail(`not a ${BACKUP_FORMAT} file (no header)`);
    }
    switch (record.kind) {
      case 'header':
        if (version !== 0) throw fail('a second header');
        if (record.version > BACKUP_VERSION) {
          throw fail(
            `backup format version ${record.version} is newer than this linkconfig reads (${BACKUP_VERSION})`,
          );
        }
        version = record.version;
        break;
      case 'end':
        for (const [name, count] of Object.entries(record.counts)) {
          if ((counts[name] ?? 0) !== count) {
            throw fail(
              `the end record counts ${count} ${name} records, the file holds ${counts[name] ?? 0}`,
            );
          }
        }
        ended = true;
        break;
      case 'config':
      case 'revision':
      case 'publish':
      case 'key':
      case 'link':
      case 'hook':
        counts[record.kind] = (counts[record.kind] ?? 0) + 1;
        yield { line, version, record };
    }
  }
  if (!ended) {
    throw new BackupFileError(
      `${file}: the file ends before its end record (cut short?)`,
    );
  }
}

/** What a checked file holds. */
export interface BackupContents {
  /** The file's format version (1: configs only). */
  readonly version: number;
  readonly configs: number;
  readonly revisions: number;
  readonly keys: number;
  /** Link records (format 3). */
  readonly links: number;
  /** Publish records (format 5). */
  readonly published: number;
}

/**
 * Reads the whole file (telling `onBytes` how far) and checks every record and how they fit together. No text of a revision may
 * exceed `maxConfigBytes` (`BODY_LIMIT`): a keyframe that inflates further, or a change that grows past it,
 * refuses the file, as do lines longer than {@link maxLineLength}.
 */
export async function checkBackup(
  file: string,
  maxConfigBytes: number = DEFAULT_BODY_LIMIT,
  onBytes?: (bytesRead: number) => void,
): Promise<BackupContents> {
  /** Per config: the version and a digest of its text (what its newest revision must hold). */
  const configs = new Map<string, { version?: number; digest: string }>();
  const ids = new Set<number>();
  const keyIds = new Set<string>();
  const linkUrls = new Set<string>();
  const hookIds = new Set<string>();
  const secretHashes = new Set<string>();
  const finished = new Set<string>();
  const published = new PublishChecks();
  let version = 1;
  let revisions = 0;
  /** The name whose revisions are being read, its chain, and its newest revision so far. */
  let open = null as {
    name: string;
    reader: ChainReader;
    last: BackupRevision;
  } | null;
  const finish = (at: string): void => {
    if (open === null) return;
    const { name, reader, last } = open;
    const config = configs.get(name);
    const fits =
      config === undefined
        ? last.op === 'delete'
        : last.content !== null &&
          last.id === config.version &&
          digest(reader.text()) === config.digest;
    if (!fits) {
      throw new BackupFileError(
        `${at}: the newest revision of "${name}" does not hold what the config stores`,
      );
    }
    finished.add(name);
    open = null;
  };
  for await (const { line, record, version: v } of readRecords(
    file,
    maxConfigBytes,
    onBytes,
  )) {
    version = v;
    const at = `${file}, line ${line}`;
    const fail = (why: string): BackupFileError =>
      new BackupFileError(`${at}: ${why}`);
    switch (record.kind) {
      case 'config': {
        checkConfigText(`config "${record.name}"`, record.json, fail);
        if (configs.has(record.name)) {
          throw fail(`config "${record.name}" comes twice`);
        }
        if (v >= 2 && record.version === undefined) {
          throw fail(`config "${record.name}" has no version`);
        }
        configs.set(record.name, {
          ...(record.version === undefined ? {} : { version: record.version }),
          digest: digest(record.json),
        });
        break;
      }
      case 'revision': {
        revisions++;
        const label = `revision ${record.rev} of "${record.name}"`;
        if (open?.name !== record.name) {
          finish(at);
          if (finished.has(record.name)) {
            throw fail(`${label} is apart from the others of its config`);
          }
          open = {
            name: record.name,
            reader: new ChainReader(maxConfigBytes),
            last: record,
          };
        } else if (record.rev <= open.last.rev) {
          throw fail(`${label} comes after revision ${open.last.rev}`);
        }
        if (ids.has(record.id))
          throw fail(`change id ${record.id} comes twice`);
        ids.add(record.id);
        const { content } = revisionOf(record);
        if (content !== null) {
          const delta = content.base !== record.rev;
          const previous = open.last;
          if (
            delta &&
            (previous === record ||
              previous.rev !== record.rev - 1 ||
              previous.content === null)
          ) {
            throw fail(`${label} is a change of a revision the file lacks`);
          }
          try {
            open.reader.apply(content, record.rev);
          } catch (error) {
            const why =
              error instanceof RevisionContentError ? `: ${error.message}` : '';
            throw fail(`${label} cannot be read back${why}`);
          }
        }
        const { reader } = open;
        published.revision(record, () => reader.text(), fail);
        open.last = record;
        break;
      }
      case 'publish':
        if (v < PUBLISH_VERSION) {
          throw fail(
            `a publish record in a file of format version ${v} (they came with version ${PUBLISH_VERSION})`,
          );
        }
        published.add(record, at, fail);
        break;
      case 'key':
        if (keyIds.has(record.id)) throw fail(`key ${record.id} comes twice`);
        // Stored keys are unique by secret too: a repeat would fail only after the configs are written.
        if (secretHashes.has(record.secretHash)) {
          throw fail(`key ${record.id} has the secret of another key`);
        }
        keyIds.add(record.id);
        secretHashes.add(record.secretHash);
        break;
      case 'link':
        if (linkUrls.has(record.url))
          throw fail(`the link record of ${record.url} comes twice`);
        linkUrls.add(record.url);
        break;
      case 'hook':
        // Ids are unique: a repeat would fail only after the configs are written.
        if (hookIds.has(record.id)) throw fail(`hook ${record.id} comes twice`);
        hookIds.add(record.id);
    }
  }
  finish(file);
  published.finish();
  if (version >= 2) {
    for (const name of configs.keys()) {
      if (!finished.has(name)) {
        throw new BackupFileError(`${file}: config "${name}" has no revisions`);
      }
    }
  }
  return {
    version,
    configs: configs.size,
    revisions,
    keys: keyIds.size,
    links: linkUrls.size,
    published: published.count,
  };
}
