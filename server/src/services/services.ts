import type { FilterProtocolHandler } from '@linkconfig/shared';
import { ChangeFeed } from '../events/change-feed.js';
import type { ChangeFeedOptions } from '../events/change-feed.js';
import type { ConfigRepository } from '../storage/config-repository.js';
import { VersionedCache } from './config-cache.js';
import { ConfigService } from './config-service.js';
import type { ConfigVersion } from './config-version.js';
import { ExpressionService } from './expression-service.js';
import { SearchService } from './search-service.js';

/** Everything the procedures call. */
export interface Services {
  readonly configs: ConfigService;
  readonly search: SearchService;
  readonly expressions: ExpressionService;
  /** The change feed (`GET /events`, `configs.changes`); reads the repository only while streams are open. */
  readonly changes: ChangeFeed;
}

/** Options of {@link createServices}. */
export interface ServicesOptions {
  readonly repository: ConfigRepository;
  /** Budget of the per-version config cache, in approximate bytes (default 256 MiB). */
  readonly cacheBytes?: number;
  /** The clock (default: the system clock). */
  readonly now?: () => Date;
  /** Extra filter protocol handlers for expressions (code, never stored). */
  readonly handlers?: Readonly<Record<string, FilterProtocolHandler>>;
  /** Bounds and timing of the change feed. */
  readonly feed?: Omit<ChangeFeedOptions, 'source'>;
}

/** Wires the services over one repository. */
export function createServices(options: ServicesOptions): Services {
  const now = options.now ?? (() => new Date());
  const budget = options.cacheBytes ?? 256 * 1024 * 1024;
  // Half for stored configs and what is derived from them, a quarter each for merges and results.
  const cache = new VersionedCache<ConfigVersion>({ maxWeight: budget / 2 });
  const configs = new ConfigService({
    repository: options.repository,
    cache,
    now,
  });
  return {
    configs,
    search: new SearchService(configs),
    expressions: new ExpressionService({
      configs,
      now: () => now().getTime(),
      cacheBytes: budget / 4,
      ...(options.handlers === undefined ? {} : { handlers: options.handlers }),
    }),
    changes: new ChangeFeed({ ...options.feed, source: options.repository }),
  };
}
