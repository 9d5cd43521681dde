/**
 * `linkconfig backup` and `linkconfig restore` (docs/import-export.md#backups): a whole database to one
 * file and back, on SQLite or PostgreSQL, while the server runs.
 */
import type { Command } from 'commander';
import { NotEmptyError, restoreBackup } from '../backup/restore-backup.js';
import type { RestoreProgress } from '../backup/restore-backup.js';
import { ByteSizeSchema } from '../config/settings.js';
import { DEFAULT_BODY_LIMIT } from '../config/limits.js';
import { writeBackup } from '../backup/write-backup.js';
import { parseDatabaseUrl } from '../config/database-url.js';
import { databaseUrlOf, UsageError } from './cli-io.js';
import type { CliIo } from './cli-io.js';
import { openCliDatabase } from './open-database.js';
import { progressOn } from './progress.js';

const megabytes = (bytes: number): string =>
  `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * The largest config a restored file may hold: `--body-limit`, else `BODY_LIMIT`, else the server's
 * default, as for the server (a backup of a server with a higher `BODY_LIMIT` needs the same here).
 */
function bodyLimit(options: { bodyLimit?: string }, io: CliIo): number {
  const text = options.bodyLimit ?? io.env['BODY_LIMIT'] ?? '';
  if (text.trim() === '') return DEFAULT_BODY_LIMIT;
  const size = ByteSizeSchema.safeParse(text.trim());
  if (!size.success || size.data < 1) {
    throw new UsageError(
      `--body-limit (BODY_LIMIT) must be a size such as 10485760, 512kb or 10mb; got "${text}"`,
    );
  }
  return size.data;
}

const DATABASE_OPTION = [
  '--database-url <url>',
  'the database (default DATABASE_URL, else ./data/linkconfig.db)',
] as const;

/** Adds `backup` and `restore` to the program. */
export function addBackupCommands(program: Command, io: CliIo): void {
  program
    .command('backup')
    .description(
      'write every config of a database, its history and the access keys to a file, consistently while the server runs',
    )
    .argument('<file>', 'the backup file to write (JSON lines)')
    .option(...DATABASE_OPTION)
    .action(async (file: string, options: { databaseUrl?: string }) => {
      const url = databaseUrlOf(options, io);
      const repository = await openCliDatabase(url, 'read');
      const progress = progressOn(io, { lines: true });
      try {
        const { counts, bytes } = await writeBackup(repository, file, {
          source: parseDatabaseUrl(url).kind,
          onProgress: ({ done, total, bytes: sofar }) => {
            if (done === 1) progress.start('backup', total);
            progress.update(done, `${megabytes(sofar)} written`);
          },
        });
        progress.stop();
        io.stdout.write(
          `backup of ${counts['config'] ?? 0} configs, ${counts['revision'] ?? 0} revisions, ${counts['publish'] ?? 0} publish records, ${counts['key'] ?? 0} access keys and ${counts['link'] ?? 0} link checks (${megabytes(bytes)}) written to ${file}\n`,
        );
      } finally {
        progress.stop();
        await repository.close();
      }
    });
  program
    .command('restore')
    .description(
      'restore a backup into an empty database of either kind (SQLite or PostgreSQL)',
    )
    .argument('<file>', 'the backup file')
    .option(...DATABASE_OPTION)
    .option(
      '--force',
      'restore into a database that holds configs: they and their history are deleted first',
    )
    .option(
      '--body-limit <size>',
      'the largest config the file may hold, as the server that made it allowed (default BODY_LIMIT, else 10mb)',
    )
    .action(
      async (
        file: string,
        options: { databaseUrl?: string; force?: boolean; bodyLimit?: string },
      ) => {
        const url = databaseUrlOf(options, io);
        const maxConfigBytes = bodyLimit(options, io);
        const repository = await openCliDatabase(url, 'create');
        const progress = progressOn(io, { lines: true });
        let phase: RestoreProgress['phase'] | null = null;
        try {
          const { configs, revisions, published, keys, links, removed } =
            await restoreBackup(repository, file, {
              force: options.force === true,
              maxConfigBytes,
              onProgress: ({ phase: now, done, total }) => {
                if (now !== phase) {
                  phase = now;
                  progress.start(
                    now === 'check' ? 'checking the file' : 'restoring',
                    total,
                  );
                }
                progress.update(
                  done,
                  now === 'check'
                    ? `${megabytes(done)} of ${megabytes(total)} read`
                    : `${done}/${total} rows written`,
                );
              },
            });
          progress.stop();
          io.stdout.write(
            `restored ${configs} configs, ${revisions} revisions, ${published} publish records, ${keys} access keys and ${links} link checks from ${file}${removed > 0 ? `; ${removed} configs that were there were deleted first` : ''}\n`,
          );
        } catch (error) {
          if (error instanceof NotEmptyError)
            throw new UsageError(error.message);
          throw error;
        } finally {
          progress.stop();
          await repository.close();
        }
      },
    );
}
