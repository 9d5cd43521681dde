/**
 * A link checker over a memory repository, its outbound requests allowed only to the test's loopback
 * server, timed by a manual clock; configs are stored through the services as the server would.
 */
import type { LinkHealthRecord } from '@linkconfig/shared';
import { LinkChecker } from '../src/link-health/link-checker.js';
import type { LinkCheckerOptions } from '../src/link-health/link-checker.js';
import { Outbound, OutboundAllowList } from '../src/outbound/index.js';
import type { Clock } from '../src/clock.js';
import { createServices } from '../src/services/services.js';
import type { Services } from '../src/services/services.js';
import { createMemoryConfigRepository } from '../src/storage/memory/memory-config-repository.js';
import type { ConfigRepository } from '../src/storage/config-repository.js';
import { ManualClock } from '../src/test-clock.js';
import type { LoopbackServer } from './loopback-server.js';

/** A checker and what it works on. */
export interface CheckerHarness {
  readonly clock: ManualClock;
  readonly services: Services;
  readonly repository: ConfigRepository;
  readonly checker: LinkChecker;
  readonly outbound: Outbound;
  readonly events: Parameters<NonNullable<LinkCheckerOptions['onEvent']>>[0][];
  /** Stores a config whose links are these URLs (ids `l0`, `l1`, …). */
  putLinks(name: string, urls: readonly string[]): Promise<void>;
  /** Runs a check of `urls` to its end, moving the clock as the checker waits. */
  run(urls: readonly string[]): Promise<LinkHealthRecord[]>;
  /** The stored record of `url`. */
  record(url: string): Promise<LinkHealthRecord | undefined>;
  close(): Promise<void>;
}

/** Options of {@link checkerHarness}. */
export interface HarnessOptions extends Partial<LinkCheckerOptions> {
  readonly repository?: ConfigRepository;
  /** Times the outbound module's limits (default: the system clock). */
  readonly outboundClock?: Clock;
  readonly clock?: ManualClock;
}

/** A checker allowed to reach only `servers` (their ports on 127.0.0.1). */
export function checkerHarness(
  servers: readonly LoopbackServer[],
  options: HarnessOptions = {},
): CheckerHarness {
  const clock = options.clock ?? new ManualClock();
  const repository = options.repository ?? createMemoryConfigRepository();
  const outbound = new Outbound({
    allow: new OutboundAllowList(servers.map((s) => `127.0.0.1:${s.port}`)),
    userAgent: 'linkconfig/1.0 (test; +mailto:test@example.invalid)',
    ...(options.outboundClock === undefined
      ? {}
      : { clock: options.outboundClock }),
  });
  const services = createServices({
    repository,
    outbound,
    now: () => new Date(clock.now()),
  });
  const events: CheckerHarness['events'] = [];
  const checker = new LinkChecker({
    store: repository.linkHealth,
    configs: services.configs,
    outbound,
    robotsCache: services.caches.robots,
    clock,
    onEvent: (event) => events.push(event),
    onError: (error) => {
      throw error;
    },
    ...options,
  });
  return {
    clock,
    services,
    repository,
    checker,
    outbound,
    events,
    putLinks: async (name, urls) => {
      await services.configs.put(name, {
        allLinks: Object.fromEntries(urls.map((url, i) => [`l${i}`, { url }])),
      });
    },
    run: async (urls) => {
      const checked: LinkHealthRecord[] = [];
      let done = false;
      const running = checker
        .runFor(urls, (r) => checked.push(r))
        .finally(() => {
          done = true;
        });
      await clock.runUntil(() => done, {
        canAdvance: () => checker.inFlight === 0,
      });
      await running;
      return checked;
    },
    record: async (url) => (await repository.linkHealth.get([url]))[0],
    close: async () => {
      await checker.stop();
      await outbound.close();
      await repository.close();
    },
  };
}
