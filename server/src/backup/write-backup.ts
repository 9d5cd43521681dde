/**
 * Writes a backup (docs/import-export.md#backups): the repository's snapshot (configs, publish records,
 * their revisions, the access keys) as JSON lines, to a file that appears under its name only once it is
 * complete (written as `<file>.partial`, then renamed).
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { BACKUP_FORMAT, BACKUP_VERSION } from '@linkconfig/shared';
import type { BackupRecord } from '@linkconfig/shared';
import type { ConfigRepository } from '../storage/config-repository.js';
import { recordOf } from './backup-rows.js';

/** What a backup wrote. */
export interface BackupSummary {
  readonly counts: Readonly<Record<string, number>>;
  readonly bytes: number;
}

/** The records of a backup of `repository`, header to end, from one snapshot. */
export async function* backupRecords(
  repository: ConfigRepository,
  source: string,
  now: () => Date = () => new Date(),
): AsyncGenerator<BackupRecord> {
  yield {
    kind: 'header',
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    createdAt: now().toISOString(),
    source,
  };
  const counts: Record<string, number> = {
    config: 0,
    publish: 0,
    revision: 0,
    key: 0,
    link: 0,
    hook: 0,
  };
  for await (const item of repository.snapshot()) {
    counts[item.kind] = (counts[item.kind] ?? 0) + 1;
    yield recordOf(item);
  }
  // What the link checker knows, read after the snapshot: derived from the configs' URLs, it need not
  // agree with them to the write (a URL no config holds is forgotten at the checker's next look).
  for (const record of await repository.linkHealth.all()) {
    counts['link'] = (counts['link'] ?? 0) + 1;
    yield { kind: 'link', ...record };
  }
  // Webhooks without their secrets (docs/operations.md#webhooks): a backup never carries a key that signs.
  for (const hook of await repository.hooks.list()) {
    counts['hook'] = (counts['hook'] ?? 0) + 1;
    yield {
      kind: 'hook',
      id: hook.id,
      url: hook.url,
      events: [...hook.events],
      configs: [...hook.configs],
      createdAt: hook.createdAt,
      cursor: hook.cursor,
    };
  }
  yield { kind: 'end', counts };
}

/**
 * How far a backup is: `done` of `total` steps, a step being a config written or the history of one name
 * (a deleted config's too), and the bytes written so far. The total is counted before the snapshot
 * starts, so writes meanwhile may move it a little.
 */
export interface BackupProgress {
  readonly done: number;
  readonly total: number;
  readonly bytes: number;
}

/** Writes the backup of `repository` to `file`, telling `onProgress` how far it is. */
export async function writeBackup(
  repository: ConfigRepository,
  file: string,
  {
    source,
    onProgress,
  }: {
    source: string;
    onProgress?: (progress: BackupProgress) => void;
  },
): Promise<BackupSummary> {
  const total =
    onProgress === undefined
      ? 0
      : 2 * (await repository.count()) +
        (await repository.deletedNames()).length;
  const partial = `${file}.partial`;
  const out = createWriteStream(partial);
  let counts: Record<string, number> = {};
  let bytes = 0;
  let done = 0;
  let history = '';
  try {
    for await (const record of backupRecords(repository, source)) {
      if (record.kind === 'end') counts = record.counts;
      if (
        record.kind === 'config' ||
        (record.kind === 'revision' && record.name !== history)
      ) {
        if (record.kind === 'revision') history = record.name;
        done++;
        onProgress?.({ done, total, bytes });
      }
      const line = `${JSON.stringify(record)}\n`;
      bytes += Buffer.byteLength(line);
      if (!out.write(line)) await once(out, 'drain');
    }
    out.end();
    await once(out, 'finish');
    await rename(partial, file);
  } catch (error) {
    out.destroy();
    await rm(partial, { force: true });
    throw error;
  }
  return { counts, bytes };
}
