import type { FilterProtocolHandler } from '@linkconfig/shared';
import { createCaches } from '../cache/cache-policy.js';
import type { CompiledPattern } from './compiled-pattern.js';
import { EVENT_LOOP_SLICES } from '../event-loop.js';
import type { Caches } from '../cache/cache-policy.js';
import type { ResponseCache } from '../cache/response-cache.js';
import type { ConfigVersion } from '../versions/config-version.js';
import { ChangeFeed } from '../events/change-feed.js';
import { repositoryHookLog } from '../hooks/hook-log.js';
import { HookService } from '../hooks/hook-service.js';
import { HookWorker } from '../hooks/hook-worker.js';
import type { HookWorkerOptions } from '../hooks/hook-worker.js';
import { KeyLookup } from '../keys/key-lookup.js';
import type { KeptKey, KeyLookupOptions } from '../keys/key-lookup.js';
import { KeyService } from '../keys/key-service.js';
import type { ChangeFeedOptions } from '../events/feed-options.js';
import { appendLinkEvents } from '../link-health/link-events.js';
import { LinkChecker } from '../link-health/link-checker.js';
import type { LinkCheckerOptions } from '../link-health/link-checker.js';
import type { KeptRobots } from '../link-health/robots-rules.js';
import { Outbound, userAgentOf } from '../outbound/index.js';
import type {
  ConfigRepository,
  NameVersion,
} from '../storage/config-repository.js';
import { ConfigService } from './config-service.js';
import { ExpressionService } from './expression-service.js';
import { HistoryService } from './history-service.js';
import { LinkHealthService } from './link-health-service.js';
import { PublishService } from './publish-service.js';
import { purgeOnLinkEvent } from './purge.js';
import { publishedSource } from './published-source.js';
import { SearchService } from './search-service.js';
import { scanPermits } from './scan-permits.js';
import { TagService } from './tag-service.js';

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
  readonly caches: Caches<ConfigVersion, KeptKey, KeptRobots, NameVersion>;
  /** Whole read answers the REST layer reuses while the stored state holds (one of {@link caches}). */
  readonly responses: ResponseCache;
  /** The clock (ms since the epoch) answers are timed by. */
  now(): number;
  /** The change feed (`GET /events`, `configs.changes`); reads the repository only while streams are open. */
  readonly changes: ChangeFeed;
  /** The one way out: every HTTP request the server makes of its own (behind the SSRF guard). */
  readonly outbound: Outbound;
  /** Link health: the checker of this process and what it found (`/links/health`). */
  readonly linkHealth: LinkHealthService;
  /** Webhooks: made, listed, removed (`/hooks`), and their delivery logs. */
  readonly hooks: HookService;
  /** Delivers webhooks from the log of changes (started by the server, stopped on close). */
  readonly hookWorker: HookWorker;
  /** Publishing: publish records, rollbacks, unpublishing (`/configs/{name}/publish`). */
  readonly publish: PublishService;
  /**
   * The same services over the published versions (`/published`, `published-source.ts`): configs,
   * search and expressions read publish records instead of heads; everything else is shared.
   */
  readonly publishedView: Services;
  /** Tag renames and merges, through the config service's write path. */
  readonly tags: TagService;
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
  /** The outbound module (default: one that reaches public addresses only). */
  readonly outbound?: Outbound;
  /** The link checker's timing, clock and where its events go (it starts only when told to). */
  readonly linkCheck?: Omit<
    LinkCheckerOptions,
    'store' | 'configs' | 'outbound' | 'robotsCache'
  >;
  /** The delivery worker's timing and limits (it starts only when told to). */
  readonly hooks?: Omit<HookWorkerOptions, 'store' | 'log' | 'outbound'>;
  /** Told after each publish and unpublish (purges of shared caches; see `PublishServiceDeps`). */
  readonly onPublishEvent?: (event: { readonly name: string }) => void;
}

/** Wires the services over one repository. */
export function createServices(options: ServicesOptions): Services {
  const given = options.now;
  const clock = given ?? (() => new Date());
  // The system clock's milliseconds are read without a Date per call (several per request).
  const now = given === undefined ? () => Date.now() : () => given().getTime();
  const caches = createCaches<
    ConfigVersion,
    KeptKey,
    KeptRobots,
    NameVersion,
    CompiledPattern
  >(options.cacheBytes);
  // One gate for both views' searches: the versions they read from storage share one process's memory.
  const scans = scanPermits();
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
  const outbound =
    options.outbound ?? new Outbound({ userAgent: userAgentOf() });
  // Published menus that hide broken links change with link health: their cached answers are purged.
  const purgeLinkEvent =
    options.onPublishEvent === undefined
      ? undefined
      : purgeOnLinkEvent(options.repository.publish, options.onPublishEvent);
  const checker = new LinkChecker({
    ...options.linkCheck,
    // Every change of state goes to the one log (webhooks, change feed), then to the caller's listener.
    onEvent: appendLinkEvents(options.repository, async (event) => {
      await options.linkCheck?.onEvent?.(event);
      await purgeLinkEvent?.(event);
    }),
    store: options.repository.linkHealth,
    configs,
    outbound,
    robotsCache: caches.robots,
  });
  const hookLog = repositoryHookLog(options.repository);
  const hookWorker = new HookWorker({
    ...options.hooks,
    store: options.repository.hooks,
    log: hookLog,
    outbound,
  });
  const services: Omit<Services, 'publishedView'> = {
    configs,
    keys: new KeyService(options.repository.keys, clock, () =>
      keyLookup.forget(),
    ),
    keyLookup,
    search: new SearchService(configs, EVENT_LOOP_SLICES, {
      summaries: caches.summaries,
      patterns: caches.patterns,
      scans,
    }),
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
    outbound,
    linkHealth: new LinkHealthService({
      store: options.repository.linkHealth,
      configs,
      checker,
      scans,
    }),
    hooks: new HookService({
      store: options.repository.hooks,
      log: hookLog,
      now: clock,
      created: () => hookWorker.wake(),
    }),
    hookWorker,
    publish: new PublishService({
      repository: options.repository,
      now: clock,
      ...(options.onPublishEvent === undefined
        ? {}
        : { onPublishEvent: options.onPublishEvent }),
    }),
    tags: new TagService(configs),
  };
  const publishedConfigs = new ConfigService({
    repository: publishedSource(options.repository, services.linkHealth),
    cache: caches.published,
    now: clock,
  });
  const all = services as Services;
  const publishedView: Services = {
    ...services,
    configs: publishedConfigs,
    search: new SearchService(publishedConfigs, EVENT_LOOP_SLICES, {
      summaries: caches.summaries,
      patterns: caches.patterns,
      scans,
    }),
    expressions: new ExpressionService({
      configs: publishedConfigs,
      now,
      merges: caches.merges,
      ...(options.handlers === undefined ? {} : { handlers: options.handlers }),
    }),
    get publishedView(): Services {
      return publishedView;
    },
  };
  Object.defineProperty(all, 'publishedView', { value: publishedView });
  return all;
}
