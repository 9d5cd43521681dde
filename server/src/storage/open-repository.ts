import type { ConfigRepository } from './config-repository.js';
import { createPostgresConfigRepository } from './postgres/postgres-config-repository.js';
import { createSqliteConfigRepository } from './sqlite/sqlite-config-repository.js';
import { parseDatabaseUrl } from '../config/database-url.js';

/** Opens the repository a `DATABASE_URL` names (migrating its schema when needed). */
export async function openRepository(url: string): Promise<ConfigRepository> {
  const target = parseDatabaseUrl(url);
  switch (target.kind) {
    case 'sqlite':
      return createSqliteConfigRepository({ path: target.path });
    case 'postgres':
      return createPostgresConfigRepository({
        connectionString: target.url,
        ...(target.schema === undefined ? {} : { schema: target.schema }),
      });
  }
}

/** The database a log line may name: the SQLite path, or the PostgreSQL host, database and schema without credentials. */
export function describeDatabase(url: string): string {
  const target = parseDatabaseUrl(url);
  if (target.kind === 'sqlite') return `sqlite:${target.path}`;
  const parsed = new URL(target.url);
  const schema = target.schema === undefined ? '' : `?schema=${target.schema}`;
  return `postgres://${parsed.host}${parsed.pathname}${schema}`;
}
