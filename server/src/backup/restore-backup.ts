/**
 * Restores a backup (docs/import-export.md#backups) into a database. The file is read twice: first to
 * check all of it (`read-backup.ts`), so a damaged file writes nothing; then to write. A file of format 2
 * or later is written back as it was stored: configs with their versions, every revision with its
 * number, change id and content, the publish records (format 5; an older file publishes nothing), and
 * the keys' rows (`ConfigRepository.restoreRows`, `KeyRepository.putAll`). A file of format 1 (configs
 * only) goes through the one write algorithm, each config with its own timestamps.
 */
import { stat } from 'node:fs/promises';
import type {
  ConfigRepository,
  RevisionRecord,
  StoredConfig,
} from '../storage/config-repository.js';
import type { BackupHook, LinkHealthRecord } from '@linkconfig/shared';
import { DEFAULT_BODY_LIMIT } from '../config/limits.js';
import type { StoredHook } from '../storage/hook-store.js';
import type { StoredKey } from '../storage/key-repository.js';
import type { StoredPublish } from '../storage/publish-store.js';
import { configOf, keyOf, publishOf, revisionOf } from './backup-rows.js';
import { checkBackup, readRecords } from './read-backup.js';

/** Writes in flight at once (format 1): enough to fill the group commits of SQLite and PostgreSQL's pool. */
const WRITE_WINDOW = 16;
/** Rows per restore transaction (format 2), and the most config text in one. */
const BATCH_ROWS = 500;
const BATCH_CHARS = 8 * 1024 * 1024;

/** Options of {@link restoreBackup}. */
export interface RestoreOptions {
  /** Replace what the database holds (configs and history are deleted first); else it must be empty. */
  readonly force: boolean;
  /**
   * Told how far the restore is: while the file is checked, bytes read of the file's size; while it is
   * written, rows (configs and revisions) written of all the file holds.
   */
  readonly onProgress?: (progress: RestoreProgress) => void;
  /**
   * The largest config text the file may hold, in bytes (`BODY_LIMIT`; default its default): what
   * bounds every revision's text and every line while the file is checked.
   */
  readonly maxConfigBytes?: number;
}

/** How far a restore is (see {@link RestoreOptions.onProgress}). */
export interface RestoreProgress {
  readonly phase: 'check' | 'write';
  readonly done: number;
  readonly total: number;
}

/** What a restore did. */
export interface RestoreSummary {
  readonly configs: number;
  readonly revisions: number;
  readonly keys: number;
  /** What the link checker knew of URLs (format 3). */
  readonly links: number;
  /** Publish records: what `/published` serves (format 5). */
  readonly published: number;
  /** Configs deleted first (`force` only). */
  readonly removed: number;
}

/** The database is not empty and `force` was not given: nothing was written. */
export class NotEmptyError extends Error {
  override readonly name = 'NotEmptyError';
}

/** What the database holds already, in words, or `null` when it is empty. */
async function heldAlready(repository: ConfigRepository): Promise<{
  configs: number;
  words: string | null;
}> {
  const configs = await repository.count();
  const deleted = (await repository.deletedNames()).length;
  const keys = (await repository.keys.list()).length;
  const parts = [
    configs > 0 ? `${configs} configs` : '',
    deleted > 0 ? `the history of ${deleted} deleted configs` : '',
    keys > 0 ? `${keys} access keys` : '',
  ].filter((part) => part !== '');
  return { configs, words: parts.length === 0 ? null : parts.join(', ') };
}

/** Checks `file`, then writes it into `repository`. */
export async function restoreBackup(
  repository: ConfigRepository,
  file: string,
  options: RestoreOptions,
): Promise<RestoreSummary> {
  const maxConfigBytes = options.maxConfigBytes ?? DEFAULT_BODY_LIMIT;
  const report = options.onProgress;
  const size = report === undefined ? 0 : (await stat(file)).size;
  const contents = await checkBackup(
    file,
    maxConfigBytes,
    report === undefined
      ? undefined
      : (done) => report({ phase: 'check', done, total: size }),
  );
  const rows =
    contents.configs + (contents.version < 2 ? 0 : contents.revisions);
  const written = (done: number): void =>
    report?.({ phase: 'write', done, total: rows });
  written(0);
  const held = await heldAlready(repository);
  if (held.words !== null && !options.force) {
    throw new NotEmptyError(
      `the database already holds ${held.words}; restore writes only into an empty database (--force replaces what it holds)`,
    );
  }
  if (contents.version < 2) {
    const removed = await removeAll(repository);
    const configs = await writeConfigs(repository, file, {
      maxConfigBytes,
      onConfig: written,
    });
    return { configs, revisions: 0, keys: 0, links: 0, published: 0, removed };
  }
  let replace = options.force && held.words !== null;
  let configs: StoredConfig[] = [];
  let revisions: RevisionRecord[] = [];
  let published: StoredPublish[] = [];
  let chars = 0;
  let done = 0;
  const keys: StoredKey[] = [];
  const hooks: StoredHook[] = [];
  let links: LinkHealthRecord[] = [];
  let linkCount = 0;
  const flush = async (): Promise<void> => {
    await repository.restoreRows(
      { configs, revisions, published },
      { replace },
    );
    replace = false;
    done += configs.length + revisions.length;
    written(done);
    configs = [];
    revisions = [];
    published = [];
    chars = 0;
  };
  for await (const { record } of readRecords(file, maxConfigBytes)) {
    if (record.kind === 'key') keys.push(keyOf(record));
    else if (record.kind === 'hook') hooks.push(restoredHook(record));
    else if (record.kind === 'link') {
      const { kind: _link, ...health } = record;
      links.push(health);
      if (links.length >= BATCH_ROWS) {
        await repository.linkHealth.putAll(links);
        linkCount += links.length;
        links = [];
      }
    } else if (record.kind === 'publish') {
      // In the transaction of the configs and revisions around it (with `replace`, the first one, which
      // deletes the records there were).
      published.push(publishOf(record));
      chars += record.json.length;
    } else if (record.kind === 'revision') {
      revisions.push(revisionOf(record));
      chars += record.content?.data.length ?? 0;
    } else if (record.version !== undefined) {
      configs.push(configOf({ ...record, version: record.version }));
      chars += record.json.length;
    }
    const rowCount = configs.length + revisions.length + published.length;
    if (rowCount >= BATCH_ROWS || chars > BATCH_CHARS) await flush();
  }
  if (configs.length + revisions.length + published.length > 0 || replace)
    await flush();
  await repository.keys.putAll(keys);
  await repository.hooks.putAll(hooks);
  await repository.linkHealth.putAll(links);
  linkCount += links.length;
  return {
    configs: contents.configs,
    revisions: contents.revisions,
    keys: keys.length,
    links: linkCount,
    published: contents.published,
    removed: options.force ? held.configs : 0,
  };
}

/** Deletes every config (format 1 with `force`), so each restored one gets its own timestamps back. */
async function removeAll(repository: ConfigRepository): Promise<number> {
  let removed = 0;
  for (const name of await repository.list()) {
    const result = await repository.remove(name);
    if (result.ok && result.removed) removed++;
  }
  return removed;
}

/** Writes the configs of a format 1 file through the write algorithm, a window of them at once. */
async function writeConfigs(
  repository: ConfigRepository,
  file: string,
  options: { maxConfigBytes: number; onConfig: (done: number) => void },
): Promise<number> {
  let done = 0;
  let failure: unknown;
  const inFlight = new Set<Promise<void>>();
  for await (const { record } of readRecords(file, options.maxConfigBytes)) {
    if (record.kind !== 'config') continue;
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
        options.onConfig(done);
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
  return done;
}

/**
 * A hook of a backup as stored again: without a secret (backups carry none), so it delivers nothing until
 * it is made again; its cursor and the rest as they were.
 */
function restoredHook(record: BackupHook): StoredHook {
  return {
    id: record.id,
    url: record.url,
    events: record.events,
    configs: record.configs,
    secret: null,
    createdAt: record.createdAt,
    cursor: record.cursor,
    attempts: 0,
    failingSince: null,
    nextAt: 0,
    lastError: 'restored from a backup without its secret: make the hook again',
  };
}
