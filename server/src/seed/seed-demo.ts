/**
 * The demo config of an empty database (`SEED=demo`). Several instances may start together on one empty
 * PostgreSQL schema: each finds no config, and each would store `demo`. The write is made only where no
 * `demo` exists (`If-None-Match: *`), under the storage's write lock, so the first stores it and the
 * others wait for that write, find the config there and go on: one revision, never a second `put`.
 */
import type { Logger } from 'pino';
import { PreconditionFailedError } from '../errors.js';
import type { ConfigService } from '../services/config-service.js';
import type { ConfigRepository } from '../storage/config-repository.js';
import { DEMO_CONFIG } from './demo-config.js';

/** Stores the demo config when the database holds no config; answers whether this call stored it. */
export async function seedDemo(
  repository: ConfigRepository,
  configs: ConfigService,
  logger?: Logger,
): Promise<boolean> {
  if ((await repository.count()) > 0) return false;
  try {
    await configs.put('demo', DEMO_CONFIG, { ifNoneMatch: '*' });
  } catch (error) {
    // Another instance stored it first.
    if (error instanceof PreconditionFailedError) return false;
    throw error;
  }
  logger?.info('empty database: seeded the demo config');
  return true;
}
