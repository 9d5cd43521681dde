/**
 * Restores a backup (docs/import-export.md#backups) into a database. The file is read twice: first to
 * check all of it (header, every record, the end record's counts; each config as a `PUT` would check it),
 * so a damaged file writes nothing; then to write. Configs go through the repository's one write
 * algorithm with their own timestamps (`createdAt`, and `updatedAt` as the write's clock).
 */
import { createReadStream } from 'node:fs';
import {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  BackupRecordSchema,
  LIMITS,
  validateLinkConfig,
} from '@linkconfig/shared';
import type { BackupConfig } from '@linkconfig/shared';
import type { ConfigRepository } from '../storage/config-repository.js';

/** A backup that cannot be restored, with the line that says why. */
export class BackupFileError extends Error {
  override readonly name = 'BackupFileError';
}

/** The kinds of record this version restores; a file with others is refused, never restored in part. */
const KNOWN_KINDS = new Set(['header', 'config', 'end']);

/** Writes in flight at once: enough to fill the group commits of SQLite and PostgreSQL's pool. */
const WRITE_WINDOW = 16;

/**
 * The lines of a file, read as they are asked for: the stream is pulled chunk by chunk, so a reader
 * that waits for its writes holds at most a chunk and a line (`readline` would go on reading ahead).
 */
async function* readLines(file: string): AsyncGenerator<string> {
  let rest = '';
  for await (const chunk of createReadStream(file, { encoding: 'utf8' })) {
    const lines = (rest + String(chunk)).split('\n');
    rest = lines.pop() ?? '';
    yield* lines;
  }
  if (rest !== '') yield rest;
}

/** The checked records of a backup file, one line at a time (1-based line numbers). */
async function* readRecords(
  file: string,
): AsyncGenerator<{ line: number; record: BackupConfig }> {
  let line = 0;
  let header = false;
  let ended = false;
  const counts: Record<string, number> = {};
  for await (const text of readLines(file)) {
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
    const kind = (value as { kind?: unknown } | null)?.kind;
    if (typeof kind !== 'string' || !KNOWN_KINDS.has(kind)) {
      throw fail(
        `records of kind ${JSON.stringify(kind)} are not known to this version of linkconfig (restore with the version that wrote the backup)`,
      );
    }
    const parsed = BackupRecordSchema.safeParse(value);
    if (!parsed.success) throw fail(`a broken ${kind} record`);
    const record = parsed.data;
    if (!header && record.kind !== 'header') {
      throw fail(`not a ${BACKUP_FORMAT} file (no header)`);
    }
    switch (record.kind) {
      case 'header':
        if (header) throw fail('a second header');
        if (record.version > BACKUP_VERSION) {
          throw fail(
            `backup format version ${record.version} is newer than this linkconfig reads (${BACKUP_VERSION})`,
          );
        }
        header = true;
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
        counts[record.kind] = (counts[record.kind] ?? 0) + 1;
        yield { line, record };
    }
  }
  if (!ended) {
    throw new BackupFileError(
      `${file}: the file ends before its end record (cut short?)`,
    );
  }
}

/** Reads the whole file and checks every record; answers the names it holds. */
export async function checkBackup(file: string): Promise<ReadonlySet<string>> {
  const names = new Set<string>();
  for await (const { line, record } of readRecords(file)) {
    let config: unknown;
    try {
      config = JSON.parse(record.json);
    } catch {
      throw new BackupFileError(
        `${file}, line ${line}: config "${record.name}" is not JSON`,
      );
    }
    const checked = validateLinkConfig(config, { maxDepth: LIMITS.nestingMax });
    if (!checked.ok) {
      throw new BackupFileError(
        `${file}, line ${line}: config "${record.name}": ${checked.error}`,
      );
    }
    if (names.has(record.name)) {
      throw new BackupFileError(
        `${file}, line ${line}: config "${record.name}" comes twice`,
      );
    }
    names.add(record.name);
  }
  return names;
}

/** Options of {@link restoreBackup}. */
export interface RestoreOptions {
  /** Replace what the database holds (every config is deleted first); else it must be empty. */
  readonly force: boolean;
  /** Told after each config written. */
  readonly onConfig?: (done: number) => void;
}

/** What a restore did. */
export interface RestoreSummary {
  readonly configs: number;
  /** Configs deleted first (`force` only). */
  readonly removed: number;
}

/** The database is not empty and `force` was not given: nothing was written. */
export class NotEmptyError extends Error {
  override readonly name = 'NotEmptyError';
}

/** Checks `file`, then writes it into `repository`. */
export async function restoreBackup(
  repository: ConfigRepository,
  file: string,
  options: RestoreOptions,
): Promise<RestoreSummary> {
  await checkBackup(file);
  const existing = await repository.list();
  if (existing.length > 0 && !options.force) {
    throw new NotEmptyError(
      `the database already holds ${existing.length} configs; restore writes only into an empty database (--force replaces what it holds)`,
    );
  }
  // Deleted first, so each restored config gets its own timestamps back (a write over a stored name
  // would keep the stored createdAt).
  let removed = 0;
  for (const name of existing) {
    const result = await repository.remove(name);
    if (result.ok && result.removed) removed++;
  }
  let done = 0;
  let failure: unknown;
  const inFlight = new Set<Promise<void>>();
  for await (const { record } of readRecords(file)) {
    const write = repository
      .put(record.name, record.json, {
        ifNoneMatch: '*',
        createdAt: record.createdAt,
        now: () => new Date(record.updatedAt),
        op: 'restore',
      })
      .then((result) => {
        if (!result.ok) {
          throw new Error(
            `config "${record.name}" was created meanwhile by someone else; the restore stopped`,
          );
        }
        done++;
        options.onConfig?.(done);
      });
    const tracked: Promise<void> = write
      .catch((error: unknown) => {
        failure ??= error;
      })
      .finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
    if (inFlight.size >= WRITE_WINDOW) await Promise.race(inFlight);
    if (failure !== undefined) break;
  }
  await Promise.all(inFlight);
  if (failure !== undefined) throw failure;
  return { configs: done, removed };
}
