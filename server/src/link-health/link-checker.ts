/**
 * The link checker (docs/link-health.md): keeps the stored URL set in step with the configs, claims due
 * URLs under a lease in the database (so with several instances each URL is checked once per round), checks
 * them politely ({@link HostPacer}, robots.txt), applies the state rules (`link-transition.ts`) and tells
 * each change of state once ({@link LinkCheckerOptions.onEvent}). Off unless started (`LINK_CHECK=on`);
 * a run for some configs (`linkconfig check`) uses {@link LinkChecker.runFor}.
 */
import { randomUUID } from 'node:crypto';
import type { LinkEvent, LinkHealthRecord } from '@linkconfig/shared';
import type { WeightedLru } from '../cache/weighted-lru.js';
import { SYSTEM_CLOCK } from '../clock.js';
import type { Clock } from '../clock.js';
import { followRedirects } from '../outbound/index.js';
import type { Outbound } from '../outbound/index.js';
import type { ConfigService } from '../services/config-service.js';
import { hostOf } from '../storage/link-health-store.js';
import type { LinkHealthStore } from '../storage/link-health-store.js';
import { checkUrl, pacedSend } from './check-url.js';
import type { CheckDeps } from './check-url.js';
import { configLinks } from './config-links.js';
import { HostPacer, POLITE } from './host-pacer.js';
import type { PacerLimits } from './host-pacer.js';
import { transition } from './link-transition.js';
import type { CheckOutcome, CheckTiming } from './link-transition.js';
import { ResultBatch } from './result-batch.js';
import { RobotsRules } from './robots-rules.js';
import type { KeptRobots } from './robots-rules.js';

/** Defaults of `LINK_CHECK_EVERY` and `LINK_CHECK_CONFIRM`. */
export const DEFAULT_TIMING: CheckTiming = {
  everyMs: 7 * 86_400_000,
  confirmMs: 86_400_000,
};
/** How often the checker looks for new URLs and due checks when nothing wakes it. */
export const TICK_MS = 60_000;
/** Time limit of one check's chain of requests. */
export const CHECK_TIMEOUT_MS = 10_000;
/** A claimed URL's lease: far longer than a check may take. */
const LEASE_MS = 10 * 60_000;
/** Checks in hand at most, and when to claim more. */
const IN_HAND = 256;
const REFILL_BELOW = 128;
/** Checks of one host taken in one claim at most. */
const PER_HOST_IN_HAND = 4;
/** A host with fewer checks in hand than this gets more at the next claim (which is made at once). */
const LOW_IN_HAND = 2;

/** Options of {@link LinkChecker}. */
export interface LinkCheckerOptions {
  readonly store: LinkHealthStore;
  readonly configs: ConfigService;
  readonly outbound: Outbound;
  /** The `robots` cache of `cache/cache-policy.ts`. */
  readonly robotsCache: WeightedLru<string, KeptRobots>;
  /** Times the schedule, the confirm delay and politeness (default: the system clock). */
  readonly clock?: Clock;
  readonly timing?: CheckTiming;
  readonly politeness?: PacerLimits;
  readonly timeoutMs?: number;
  /**
   * The one way a change of state leaves the checker (change feed, webhooks, log); awaited, and a
   * failure (a promise it returns that rejects) is reported through {@link onError}.
   */
  readonly onEvent?: (event: LinkEvent) => unknown;
  /** Told of a round that failed (it is tried again at the next tick). */
  readonly onError?: (error: unknown) => void;
}

/** The checker's counts, for `/metrics` and reports. */
export interface LinkCheckStats {
  /** Checks by what they found (`ok`, `redirected`, `broken`, `unreachable`, `blocked`, `retry`). */
  readonly checks: Map<string, number>;
  /** Failures a success cleared before they were confirmed: false alarms the confirm rule prevented. */
  falseAlarmsPrevented: number;
  /** Events told, by type. */
  readonly events: Map<string, number>;
}

/** The link checker of one process. */
export class LinkChecker {
  readonly #options: LinkCheckerOptions;
  readonly #clock: Clock;
  readonly #timing: CheckTiming;
  readonly #deps: CheckDeps;
  readonly #owner = randomUUID();
  readonly #results: ResultBatch;
  readonly stats: LinkCheckStats = {
    checks: new Map(),
    falseAlarmsPrevented: 0,
    events: new Map(),
  };
  /** Which configs hold each URL, as of the last look at the configs (for events). */
  #holders = new Map<string, string[]>();
  #seenToken: string | null = null;
  #running: Promise<void> | undefined;
  #stop = new AbortController();
  #wake = new AbortController();

  constructor(options: LinkCheckerOptions) {
    this.#options = options;
    this.#clock = options.clock ?? SYSTEM_CLOCK;
    this.#timing = options.timing ?? DEFAULT_TIMING;
    const pacer = new HostPacer(this.#clock, options.politeness ?? POLITE);
    const timeoutMs = options.timeoutMs ?? CHECK_TIMEOUT_MS;
    const send = pacedSend({ outbound: options.outbound, pacer });
    const robots = new RobotsRules(
      options.robotsCache,
      async (url) => {
        const { response } = await followRedirects(
          options.outbound,
          { url, purpose: 'link-check', timeoutMs },
          { send },
        );
        return {
          status: response.status,
          text: new TextDecoder().decode(response.body),
        };
      },
      this.#clock,
    );
    this.#results = new ResultBatch(options.store, {
      owner: this.#owner,
      clock: this.#clock,
    });
    this.#deps = {
      outbound: options.outbound,
      pacer,
      robots,
      clock: this.#clock,
      timeoutMs,
    };
  }

  /** Requests of checks in flight now. */
  get inFlight(): number {
    return this.#deps.pacer.inFlight;
  }

  /** Whether the background schedule runs (`LINK_CHECK=on`). */
  get started(): boolean {
    return this.#running !== undefined;
  }

  /** Starts the schedule: every tick, new URLs are tracked and due ones checked. */
  start(): void {
    this.#running ??= this.#loop();
  }

  /** Stops the schedule; checks in flight end at their time limit at most. */
  async stop(): Promise<void> {
    this.#stop.abort();
    this.#wake.abort();
    await this.#results.close();
    await this.#running;
  }

  /** Makes `urls` due now and wakes the schedule; resolves with how many are tracked. */
  async checkNow(urls: readonly string[]): Promise<number> {
    await this.syncUrls();
    const count = await this.#options.store.schedule(urls, this.#clock.now());
    this.#wake.abort();
    return count;
  }

  /**
   * One run for these URLs (`linkconfig check`): tracks them, makes them due and checks them now, within
   * the same politeness and leases; `onChecked` is told after each.
   */
  async runFor(
    urls: readonly string[],
    onChecked?: (record: LinkHealthRecord) => void,
  ): Promise<void> {
    await this.syncUrls();
    await this.#options.store.schedule(urls, this.#clock.now());
    await this.#drain(urls, onChecked);
  }

  /** Tracks the URLs the configs hold now (when they changed since the last look). */
  async syncUrls(): Promise<void> {
    const { configs, store } = this.#options;
    const token = await configs.stateToken();
    if (token !== null && token === this.#seenToken) return;
    const holders = new Map<string, string[]>();
    for await (const { name, links } of configLinks(configs)) {
      for (const { url } of links) {
        if (url === null) continue;
        const names = holders.get(url);
        if (names === undefined) holders.set(url, [name]);
        else if (names.at(-1) !== name) names.push(name);
      }
    }
    const known = new Set(await store.urls());
    const added = [...holders.keys()].filter((url) => !known.has(url));
    const gone = [...known].filter((url) => !holders.has(url));
    await store.track(added, gone, this.#clock.now());
    this.#holders = holders;
    this.#seenToken = token;
  }

  /** One pass of the schedule: tracks new URLs, then checks every due one (what each tick does). */
  async runDue(): Promise<void> {
    await this.syncUrls();
    await this.#drain(undefined);
  }

  async #loop(): Promise<void> {
    while (!this.#stop.signal.aborted) {
      // A check on demand during this pass wakes this one: the pass after it starts at once.
      const wake = new AbortController();
      this.#wake = wake;
      try {
        await this.runDue();
      } catch (error) {
        this.#options.onError?.(error);
      }
      if (this.#stop.signal.aborted) break;
      if (wake.signal.aborted) continue;
      await this.#clock.sleep(TICK_MS, wake.signal).catch(() => undefined);
    }
  }

  /**
   * Claims and checks due URLs (of `only`, when given) until none is due. Each host is kept supplied: a
   * claim is made whenever a host is down to its last URL in hand (or fewer than half the checks in hand
   * are left), for the hosts with fewer than two in hand, so no host waits idle for the others.
   */
  async #drain(
    only: readonly string[] | undefined,
    onChecked?: (record: LinkHealthRecord) => void,
  ): Promise<void> {
    // Keyed by claim: a URL asked for again during its check may be claimed again before it ends.
    const running = new Map<number, Promise<void>>();
    let claims = 0;
    const perHost = new Map<string, number>();
    let hostRunningLow = true;
    for (;;) {
      const claimNow = hostRunningLow || running.size < REFILL_BELOW;
      if (claimNow && !this.#stop.signal.aborted) {
        hostRunningLow = false;
        const now = this.#clock.now();
        const claimed = await this.#options.store.claim({
          owner: this.#owner,
          now,
          until: now + LEASE_MS,
          limit: IN_HAND - running.size,
          perHost: PER_HOST_IN_HAND,
          busyHosts: [...perHost]
            .filter(([, n]) => n >= LOW_IN_HAND)
            .map(([host]) => host),
          ...(only === undefined ? {} : { only }),
        });
        for (const record of claimed) {
          const host = hostOf(record.url);
          perHost.set(host, (perHost.get(host) ?? 0) + 1);
          const key = claims++;
          const done = this.#check(record, onChecked).finally(() => {
            running.delete(key);
            const left = (perHost.get(host) ?? 1) - 1;
            if (left === 0) perHost.delete(host);
            else perHost.set(host, left);
            if (left < LOW_IN_HAND) hostRunningLow = true;
          });
          running.set(key, done);
        }
      }
      if (running.size === 0) return;
      await Promise.race(running.values());
    }
  }

  /** Checks one claimed URL and stores what it found under the lease (a failure is reported, not thrown). */
  async #check(
    before: LinkHealthRecord,
    onChecked?: (record: LinkHealthRecord) => void,
  ): Promise<void> {
    try {
      await this.#checkOne(before, onChecked);
    } catch (error) {
      this.#options.onError?.(error);
    }
  }

  async #checkOne(
    before: LinkHealthRecord,
    onChecked?: (record: LinkHealthRecord) => void,
  ): Promise<void> {
    const outcome: CheckOutcome = await checkUrl(before.url, this.#deps);
    const next = transition(
      before,
      { outcome, now: this.#clock.now() },
      this.#timing,
    );
    const stored = await this.#results.store(next.record);
    if (!stored) return;
    count(this.stats.checks, outcome.kind);
    if (next.clearedFailure) this.stats.falseAlarmsPrevented++;
    if (next.event !== null) {
      count(this.stats.events, next.event);
      await this.#options.onEvent?.({
        type: next.event,
        url: next.record.url,
        state: next.record.state,
        at: next.record.checkedAt ?? new Date(this.#clock.now()).toISOString(),
        status: next.record.status,
        reason: next.record.reason,
        configs: this.#holders.get(next.record.url) ?? [],
      });
    }
    onChecked?.(next.record);
  }
}

function count(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}
