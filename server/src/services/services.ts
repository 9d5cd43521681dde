import type { FilterProtocolHandler } from '@linkconfig/shared';
import { createCaches } from '../cache/cache-policy.js';
import { EVENT_LOOP_SLICES } from '../event-loop.js';
import type { Caches } from '../cache/cache-policy.js';
import type { ResponseCache } from '../cache/response-cache.js';
import type { ConfigVersion } from '../versions/config-version.js';
import { ChangeFeed } from '../events/change-feed.js';
import { KeyLookup } from '../keys/key-lookup.js';
import type { KeptKey, KeyLookupOptions } from '../keys/key-lookup.js';
import { KeyService } from '../keys/key-service.js';
import type { ChangeFeedOptions } from '../events/change-feed.js';
import type {
  ConfigRepository,
  NameVersion,
} from '../storage/config-repository.js';
import { ConfigService } from './config-service.js';
import { ExpressionService } from './expression-service.js';
import { HistoryService } from './history-service.js';
import { SearchService } from './search-service.js';

/** Everything the procedures call. */
export interface Services {
  readonly configs: ConfigService;
  readonly search: SearchService;
  readonly expressions: ExpressionService;
  /** Access keys: created, listed and revoked (`/keys`). */
  readonly keys: KeyService;
  /** Finds the key a request presents (kept briefly; see `keys/key-lookup.ts`). */
  readonly keyLookup: KeyLookup;
  /** Revisions, restores and the audit trail. */
  readonly history: HistoryService;
  /** Every cache of the server (`cache/cache-policy.ts`), for their counters. */
  readonly caches: Caches<ConfigVersion, KeptKey, NameVersion>;
  /** Whole read answers the REST layer reuses while the stored state holds (one of {@link caches}). */
  readonly responses: ResponseCache;
  /** The clock (ms since the epoch) answers are timed by. */
  now(): number;
  /** The change feed (`GET /events`, `configs.changes`); reads the repository only while streams are open. */
  readonly changes: ChangeFeed;
}

/** Options of {@link createServices}. */
export interface ServicesOptions {
  readonly repository: ConfigRepository;
  /** `CACHE_BYTES`: the budget of all caches together, in bytes (default 256 MiB). */
  readonly cacheBytes?: number;
  /** The clock (default: the system clock). */
  readonly now?: () => Date;
  /** Extra filter protocol handlers for expressions (code, never stored). */
  readonly handlers?: Readonly<Record<string, FilterProtocolHandler>>;
  /** Bounds and timing of the change feed. */
  readonly feed?: Omit<ChangeFeedOptions, 'source'>;
  /** How long found keys are kept, and how often their use is recorded. */
  readonly keyLookup?: KeyLookupOptions;
}

/** Wires the services over one repository. */
export function createServices(options: ServicesOptions): Services {
  const given = options.now;
  const clock = given ?? (() => new Date());
  // The system clock's milliseconds are read without a Date per call (several per request).
  const now = given === undefined ? () => Date.now() : () => given().getTime();
  const caches = createCaches<ConfigVersion, KeptKey, NameVersion>(
    options.cacheBytes,
  );
  const configs = new ConfigService({
    repository: options.repository,
    cache: caches.versions,
    readable: caches.readable,
    now: clock,
  });
  const keyLookup = new KeyLookup(
    options.repository.keys,
    caches.keys,
    options.keyLookup,
  );
  return {
    configs,
    keys: new KeyService(options.repository.keys, clock, () =>
      keyLookup.forget(),
    ),
    keyLookup,
    search: new SearchService(configs, EVENT_LOOP_SLICES, caches.summaries),
    expressions: new ExpressionService({
      configs,
      now,
      merges: caches.merges,
      ...(options.handlers === undefined ? {} : { handlers: options.handlers }),
    }),
    history: new HistoryService({ repository: options.repository, configs }),
    caches,
    responses: caches.responses,
    now,
    changes: new ChangeFeed({ ...options.feed, source: options.repository }),
  };
}
