import type { FilterProtocolHandler } from '@linkconfig/shared';
import type { Logger } from 'pino';
import { repositoryAppDir, servesPage } from './app-dir.js';
import { workerMetrics } from './cluster/cluster-messages.js';
import { DEFAULT_RATE_LIMITS } from './config/settings.js';
import type { Settings } from './config/settings.js';
import { purgeOnPublish } from './services/purge.js';
import {
  PUBLISHED_CACHE_DEFAULTS,
  publishedRates,
} from './config/publish-settings.js';
import { createApp } from './http/app.js';
import { listenGracefully } from './http/graceful-listener.js';
import { Metrics } from './http/metrics.js';
import { timeRepository } from './http/repository-timing.js';
import { DEFAULT_TIMING } from './link-health/link-checker.js';
import { registerLinkCheckMetrics } from './link-health/link-check-metrics.js';
import { tellLinkEvent } from './link-health/link-events.js';
import { createLogger } from './logger.js';
import {
  Outbound,
  registerOutboundMetrics,
  userAgentOf,
} from './outbound/index.js';
import { seedDemo } from './seed/seed-demo.js';
import { createServices } from './services/services.js';
import { warmUp } from './warm-up.js';
import type { Services } from './services/services.js';
import type { ConfigRepository } from './storage/config-repository.js';
import { describeDatabase, openRepository } from './storage/open-repository.js';
import { scheduleHistoryPruning } from './storage/log/history-pruning.js';

/** Options of {@link startServer}: the settings, plus what only code can pass. */
export interface StartOptions extends Partial<Settings> {
  /** Use this repository instead of opening `databaseUrl`. */
  readonly repository?: ConfigRepository;
  /** Extra filter protocol handlers (docs/expression-reference.md D1). */
  readonly handlers?: Readonly<Record<string, FilterProtocolHandler>>;
  readonly logger?: Logger;
  /**
   * This process is a worker of `WORKERS` > 1: `/metrics` renders every worker's metrics (through the
   * primary) and `/healthz` names this worker's pid.
   */
  readonly clusterWorker?: boolean;
  /** Time limit of one webhook delivery attempt, ms (default 10 s; tests shorten it). */
  readonly hookTimeoutMs?: number;
}

/** A running server. */
export interface RunningServer {
  readonly url: string;
  readonly port: number;
  readonly services: Services;
  /** The server's metrics (absent with `metrics: false`): register caches here, count event streams. */
  readonly metrics: Metrics | undefined;
  /** Stops accepting connections, lets in-flight requests finish (up to `graceMs`), closes the database. */
  close(graceMs?: number): Promise<void>;
}

/**
 * Default folder of the built web page: `web-client/dist-app` when the server runs from the repository,
 * `undefined` (no page) in the installed package.
 */
export const DEFAULT_APP_DIR: string | undefined = repositoryAppDir();

/** Opens storage, seeds the demo config into an empty database and serves HTTP. */
export async function startServer(
  options: StartOptions = {},
): Promise<RunningServer> {
  const logger = options.logger ?? createLogger(options.logLevel ?? 'info');
  const databaseUrl = options.databaseUrl ?? './data/linkconfig.db';
  const metrics = (options.metrics ?? true) ? new Metrics() : undefined;
  if (options.clusterWorker === true && metrics !== undefined) {
    metrics.renderWith(workerMetrics(metrics.registry));
  }
  const opened = options.repository ?? (await openRepository(databaseUrl));
  warnInertSettings(options, logger);
  // Every storage call is timed for the metrics; without metrics the repository is used as it is.
  const repository =
    metrics === undefined ? opened : timeRepository(opened, metrics);
  const outbound = new Outbound({
    userAgent: userAgentOf(options.outboundContact),
    ...(options.outboundAllow === undefined
      ? {}
      : { allow: options.outboundAllow }),
  });
  const services = createServices({
    repository,
    feed: {
      ...(options.eventsMaxStreams === undefined
        ? {}
        : { maxStreams: options.eventsMaxStreams }),
      ...(options.eventsHeartbeat === undefined
        ? {}
        : { heartbeatMs: options.eventsHeartbeat }),
      ...(options.eventsBuffer === undefined
        ? {}
        : { bufferBytes: options.eventsBuffer }),
      onError: (error: unknown) =>
        logger.error({ err: error }, 'change feed read failed; retrying'),
      onCut: (cut) =>
        logger.warn(
          cut,
          'change stream cut off: its reader fell too far behind (it resumes by id)',
        ),
    },
    ...(options.cacheBytes === undefined
      ? {}
      : { cacheBytes: options.cacheBytes }),
    ...(options.handlers === undefined ? {} : { handlers: options.handlers }),
    outbound,
    ...(options.purgeUrls === undefined || options.purgeUrls.length === 0
      ? {}
      : {
          onPublishEvent: purgeOnPublish({
            urls: options.purgeUrls,
            method: options.purgeMethod ?? 'PURGE',
            outbound,
            onError: (url, error) =>
              logger.warn({ err: error, url }, 'cache purge failed'),
          }),
        }),
    linkCheck: {
      timing: {
        everyMs: options.linkCheckEvery ?? DEFAULT_TIMING.everyMs,
        confirmMs: options.linkCheckConfirm ?? DEFAULT_TIMING.confirmMs,
      },
      onEvent: (event) => tellLinkEvent(event, logger),
      onError: (error) =>
        logger.error({ err: error }, 'link check failed; trying again later'),
    },
    hooks: {
      ...(options.hookTimeoutMs === undefined
        ? {}
        : { timeoutMs: options.hookTimeoutMs }),
      onError: (error) =>
        logger.error(
          { err: error },
          'webhook delivery round failed; trying again later',
        ),
    },
  });
  // Webhooks go out from the log of changes, beside the requests, never in a write's way.
  services.hookWorker.start();
  if (options.linkCheck === true) {
    services.linkHealth.checker.start();
    logger.info('link checking is on');
  }
  if (
    options.outboundAllow !== undefined &&
    options.outboundAllow.entries.length > 0
  ) {
    logger.warn(
      { outboundAllow: options.outboundAllow.entries },
      'OUTBOUND_ALLOW: outbound requests may reach these non-public addresses',
    );
  }
  if (metrics !== undefined) {
    registerOutboundMetrics(metrics.registry, () => services.outbound.stats());
    registerLinkCheckMetrics(
      metrics.registry,
      services.linkHealth.checker.stats,
      repository.linkHealth,
    );
    // Figures read when Prometheus scrapes: nothing runs per request.
    for (const stats of services.caches.stats()) {
      metrics.registerCache(
        stats.name,
        () =>
          services.caches.stats().find((s) => s.name === stats.name) ?? stats,
      );
    }
    metrics.countStreams(() => services.changes.openStreams);
  }
  if ((options.seed ?? 'demo') === 'demo') {
    await seedDemo(repository, services.configs, logger);
  }
  if (options.apiToken === undefined && !(await repository.keys.hasAny())) {
    logger.warn(
      'open: no API_TOKEN and no access key, so anyone may read and write every config (linkconfig keys create makes the first key)',
    );
  }
  const stopPruning = scheduleHistoryPruning(repository, options, logger);
  const appDir = options.appDir ?? DEFAULT_APP_DIR;
  if (options.appDir !== undefined && !servesPage(options.appDir)) {
    logger.warn(
      { appDir: options.appDir },
      'no index.html in the app dir: / answers where the API docs are',
    );
  }
  const app = createApp({
    services,
    logger,
    auth: {
      apiToken: options.apiToken,
      readToken: options.readToken,
      anonymousRead: options.anonymousRead,
    },
    ...(options.bodyLimit === undefined
      ? {}
      : { bodyLimit: options.bodyLimit }),
    ...(options.inlineBodyLimit === undefined
      ? {}
      : { inlineBodyLimit: options.inlineBodyLimit }),
    ...(options.bodyMinRate === undefined
      ? {}
      : { bodyMinRate: options.bodyMinRate }),
    ...(options.corsOrigins === undefined
      ? {}
      : { corsOrigins: options.corsOrigins }),
    ...(options.corsHeaders === undefined
      ? {}
      : { corsHeaders: options.corsHeaders }),
    ...(appDir === undefined ? {} : { appDir }),
    healthCheck: () => repository.count(),
    ...(options.clusterWorker === true
      ? { healthDetails: { worker: process.pid } }
      : {}),
    compression: options.compression ?? true,
    metrics,
    metricsToken: options.metricsToken,
    accessLog: options.accessLog ?? true,
    trustProxy: options.trustProxy ?? 0,
    publishedRead: options.publishedRead ?? 'public',
    publishedLifetimes: {
      maxAgeMs: options.publishedMaxAge ?? PUBLISHED_CACHE_DEFAULTS.maxAgeMs,
      sMaxAgeMs: options.publishedSMaxAge ?? PUBLISHED_CACHE_DEFAULTS.sMaxAgeMs,
      staleWhileRevalidateMs:
        options.publishedStaleWhileRevalidate ??
        PUBLISHED_CACHE_DEFAULTS.staleWhileRevalidateMs,
      staleIfErrorMs:
        options.publishedStaleIfError ??
        PUBLISHED_CACHE_DEFAULTS.staleIfErrorMs,
    },
    // On unless switched off; the defaults are far above what an honest client sends.
    rateLimit:
      (options.rateLimit ?? true)
        ? {
            reads: {
              perSecond:
                options.rateLimitReads ?? DEFAULT_RATE_LIMITS.reads.perSecond,
              burst:
                options.rateLimitReadBurst ?? DEFAULT_RATE_LIMITS.reads.burst,
            },
            writes: {
              perSecond:
                options.rateLimitWrites ?? DEFAULT_RATE_LIMITS.writes.perSecond,
              burst:
                options.rateLimitWriteBurst ?? DEFAULT_RATE_LIMITS.writes.burst,
            },
            published: publishedRates(options),
          }
        : undefined,
  });

  // The first search and query after a start should not pay for what every first call pays.
  await warmUp(logger);
  const listener = await listenGracefully(
    app,
    {
      port: options.port ?? 3000,
      hostname: options.host ?? '0.0.0.0',
    },
    logger,
  );
  const host =
    options.host === undefined || options.host === '0.0.0.0'
      ? 'localhost'
      : options.host;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${listener.port}`;
  logger.info(
    {
      url,
      database:
        options.repository === undefined
          ? describeDatabase(databaseUrl)
          : 'custom repository',
      // The folder of the page served at `/`, or null: `/` then answers where the API docs are.
      page: servesPage(appDir) ? appDir : null,
    },
    'listening',
  );

  let closing: Promise<void> | undefined;
  return {
    url,
    port: listener.port,
    services,
    metrics,
    close: (graceMs = 10_000) => {
      closing ??= (async () => {
        // Event streams never end by themselves: end them first (clients reconnect elsewhere or later,
        // resuming by id), so they do not hold the shutdown until the deadline.
        services.changes.close();
        await listener.stop(graceMs);
        await stopPruning();
        await services.linkHealth.checker.stop();
        await services.hookWorker.stop();
        await services.outbound.close();
        await repository.close();
        logger.info('stopped');
      })();
      return closing;
    },
  };
}

/**
 * `CHANGES_KEEP` and `CHANGES_MAX_AGE` bounded the change feed's own table; the feed now reads the
 * history's log, kept by `HISTORY_KEEP` alone. A set value changes nothing, and says so once.
 */
function warnInertSettings(
  options: Pick<StartOptions, 'changesKeep' | 'changesMaxAge'>,
  logger: Logger,
): void {
  const set = [
    options.changesKeep === undefined ? [] : ['CHANGES_KEEP'],
    options.changesMaxAge === undefined ? [] : ['CHANGES_MAX_AGE'],
  ].flat();
  if (set.length === 0) return;
  logger.warn(
    { settings: set },
    `${set.join(' and ')} no longer ${set.length === 1 ? 'has' : 'have'} any effect: the change feed reads the history (kept by HISTORY_KEEP)`,
  );
}
