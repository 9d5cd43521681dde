import type { ConfigRepository } from './config-repository.js';
import { createPostgresConfigRepository } from './postgres-config-repository.js';
import { createSqliteConfigRepository } from './sqlite-config-repository.js';

/** Where configs live, as `DATABASE_URL` says. */
export type StorageTarget =
  | { readonly kind: 'sqlite'; readonly path: string }
  | { readonly kind: 'postgres'; readonly url: string };

/**
 * Reads a `DATABASE_URL`: `postgres://…` / `postgresql://…` for PostgreSQL (several instances), and
 * `sqlite:<path>`, `sqlite://<path>` or a plain path for the embedded default.
 */
export function parseDatabaseUrl(url: string): StorageTarget {
  if (/^postgres(?:ql)?:\/\//i.test(url)) return { kind: 'postgres', url };
  if (url.startsWith('sqlite://'))
    return { kind: 'sqlite', path: url.slice(9) };
  if (url.startsWith('sqlite:')) return { kind: 'sqlite', path: url.slice(7) };
  return { kind: 'sqlite', path: url };
}

/** Opens the repository a `DATABASE_URL` names (migrating its schema when needed). */
export async function openRepository(url: string): Promise<ConfigRepository> {
  const target = parseDatabaseUrl(url);
  switch (target.kind) {
    case 'sqlite':
      return createSqliteConfigRepository({ path: target.path });
    case 'postgres':
      return createPostgresConfigRepository({ connectionString: target.url });
  }
}

/** The database a log line may name: the SQLite path, or the PostgreSQL host and database without credentials. */
export function describeDatabase(url: string): string {
  const target = parseDatabaseUrl(url);
  if (target.kind === 'sqlite') return `sqlite:${target.path}`;
  try {
    const parsed = new URL(target.url);
    return `postgres://${parsed.host}${parsed.pathname}`;
  } catch {
    return 'postgres';
  }
}
