/**
 * The `--database-url` side of `import` and `export`: a database opened directly, its configs read and
 * written by the server's own `ConfigService` (the same validation and preconditions as a `PUT`).
 */
import { sanitizeConfigLinks } from '@linkconfig/shared';
import type { LinkConfig } from '@linkconfig/shared';
import { DomainError, PreconditionFailedError } from '../errors.js';
import { createServices } from '../services/services.js';
import type { ConfigEndpoint } from './config-endpoint.js';
import { openCliDatabase } from './open-database.js';
import type { DatabaseUse } from './open-database.js';

/** Configs in a database, read and written by the server's own config rules. */
export async function databaseEndpoint(
  url: string,
  use: DatabaseUse,
): Promise<ConfigEndpoint> {
  const repository = await openCliDatabase(url, use);
  const { configs } = createServices({ repository });
  return {
    async read(name) {
      const version = await configs.current(name);
      if (version === null) return null;
      // The same sanitized links a GET answers.
      const config = sanitizeConfigLinks(version.stored) as LinkConfig;
      return { config, etag: version.etag };
    },
    async write(name, config, etag) {
      try {
        const conditions =
          etag === null ? { ifNoneMatch: '*' } : { ifMatch: etag };
        const { etag: stored } = await configs.put(name, config, conditions);
        return { ok: true, etag: stored };
      } catch (error) {
        if (error instanceof PreconditionFailedError) {
          return { ok: false, conflict: true };
        }
        if (error instanceof DomainError) {
          throw new Error(`writing "${name}": ${error.message}`, {
            cause: error,
          });
        }
        throw error;
      }
    },
    close: () => repository.close(),
  };
}
