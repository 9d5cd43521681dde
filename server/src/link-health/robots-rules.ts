/**
 * robots.txt, honoured for the checker's agent (`User-agent: linkconfig`), read by robots-parser. Each
 * origin's file is read once a day at most and kept in the `robots` cache (a share of `CACHE_BYTES`,
 * `cache/cache-policy.ts`). A file that is missing or refused (4xx) allows everything; one that does not
 * answer (5xx, no connection) allows this check but is asked again after five minutes, so a flaky
 * robots.txt never turns links into `blocked`.
 */
// The package is CommonJS (`module.exports` is the parser) while its types declare an ES default
// export, which TypeScript then looks for one level deeper: the cast says what Node hands over.
import * as robotsModule from 'robots-parser';
import type { WeightedLru } from '../cache/weighted-lru.js';
import type { Clock } from '../clock.js';
import { AGENT_TOKEN } from '../outbound/index.js';

type RobotsParse = typeof robotsModule.default.default;
const robotsParser = robotsModule.default as unknown as RobotsParse;

/** Parsed rules, as far as the checker asks them (robots-parser's own type stays inside this module). */
export interface RobotsFile {
  isAllowed(url: string, agent?: string): boolean | undefined;
}

/** What the cache keeps of one origin's robots.txt. */
export interface KeptRobots {
  /** The parsed rules; `null`: no rules (everything allowed). */
  readonly rules: RobotsFile | null;
  /** Until when it holds, ms since the epoch. */
  readonly until: number;
}

/** An answer to a robots.txt request (`null`: none came). */
export type RobotsAnswer = {
  readonly status: number;
  readonly text: string;
} | null;

const DAY_MS = 86_400_000;
const RETRY_MS = 5 * 60_000;
/** Memory a kept file holds beyond its text (parsed rules, the entry). */
const OVERHEAD_BYTES = 512;

/** robots.txt of every origin the checker visits. */
export class RobotsRules {
  readonly #cache: WeightedLru<string, KeptRobots>;
  readonly #read: (robotsUrl: string) => Promise<RobotsAnswer>;
  readonly #clock: Clock;
  readonly #reading = new Map<string, Promise<KeptRobots>>();

  /** `read` fetches a robots.txt URL through the checker's paced outbound requests. */
  constructor(
    cache: WeightedLru<string, KeptRobots>,
    read: (robotsUrl: string) => Promise<RobotsAnswer>,
    clock: Clock,
  ) {
    this.#cache = cache;
    this.#read = read;
    this.#clock = clock;
  }

  /** Whether the checker may request `url`. */
  async allows(url: string): Promise<boolean> {
    const { origin } = new URL(url);
    const kept = await this.#rulesOf(origin);
    return kept.rules?.isAllowed(url, AGENT_TOKEN) ?? true;
  }

  async #rulesOf(origin: string): Promise<KeptRobots> {
    const cached = this.#cache.get(origin);
    if (cached !== undefined && cached.until > this.#clock.now()) return cached;
    let reading = this.#reading.get(origin);
    if (reading === undefined) {
      reading = this.#fetch(origin).finally(() => this.#reading.delete(origin));
      this.#reading.set(origin, reading);
    }
    return reading;
  }

  async #fetch(origin: string): Promise<KeptRobots> {
    const robotsUrl = `${origin}/robots.txt`;
    const answer = await this.#read(robotsUrl).catch(() => null);
    const now = this.#clock.now();
    let kept: KeptRobots;
    let weight = OVERHEAD_BYTES;
    if (answer !== null && answer.status >= 200 && answer.status < 300) {
      kept = {
        rules: robotsParser(robotsUrl, answer.text),
        until: now + DAY_MS,
      };
      // The text and the rules parsed from it, about twice the text in UTF-16.
      weight += answer.text.length * 4;
    } else if (answer !== null && answer.status >= 400 && answer.status < 500) {
      kept = { rules: null, until: now + DAY_MS };
    } else {
      kept = { rules: null, until: now + RETRY_MS };
    }
    this.#cache.set(origin, kept, weight);
    return kept;
  }
}
