/**
 * How every `linkconfig` command opens the database it works on. A command that only reads (backup,
 * export, `keys list`) or changes what must already be there (`keys revoke`) refuses a SQLite file that
 * does not exist, naming the path: opening it would create an empty database and the command would
 * "succeed" on nothing (a mistyped path in a cron job would go unnoticed forever). Commands that may
 * start a database (restore, import, `keys create`) create it as the server does.
 */
import { existsSync } from 'node:fs';
import type { ConfigRepository } from '../storage/config-repository.js';
import { parseDatabaseUrl } from '../config/database-url.js';
import { DomainError } from '../errors.js';
import { openRepository } from '../storage/open-repository.js';

/** What a command does with the database: `read` needs one that exists, `create` may make it. */
export type DatabaseUse = 'read' | 'create';

/** Opens the database `url` names for a command that will `use` it. */
export async function openCliDatabase(
  url: string,
  use: DatabaseUse,
): Promise<ConfigRepository> {
  const target = parseDatabaseUrl(url);
  if (use === 'read' && target.kind === 'sqlite' && !existsSync(target.path)) {
    throw new Error(
      `there is no database at ${target.path} (check --database-url or DATABASE_URL); nothing was read`,
    );
  }
  return openRepository(url);
}

/**
 * Runs `work` on the database `url` names (opened for `use`), closing it afterwards. With `what`, a
 * refusal by the service's rules (`DomainError`) is told as `what: reason`, so the command's error
 * line says what it was doing.
 */
export async function withCliDatabase<T>(
  { url, use, what }: { url: string; use: DatabaseUse; what?: string },
  work: (repository: ConfigRepository) => Promise<T>,
): Promise<T> {
  const repository = await openCliDatabase(url, use);
  try {
    return await work(repository);
  } catch (error) {
    if (what !== undefined && error instanceof DomainError) {
      throw new Error(`${what}: ${error.message}`, { cause: error });
    }
    throw error;
  } finally {
    await repository.close();
  }
}
