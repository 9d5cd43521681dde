/**
 * Every cache of the server, in one place. Budgets are shares of `CACHE_BYTES`; every entry is weighed
 * by the memory it keeps alive (`weights.ts`, measured), so no stream of requests can grow the process
 * beyond the budget plus a fixed base.
 *
 * | cache       | holds                                                     | key                         | invalidated by                                  | share |
 * | ----------- | --------------------------------------------------------- | --------------------------- | ----------------------------------------------- | ----- |
 * | `versions`  | one stored version per config and all derived from it:    | config name                 | a write or delete of that name (here at once;   | 60 %  |
 * |             | the parsed config, the sanitized entry, the engine's      |                             | other processes: the repository's change token  |       |
 * |             | prepared form (with its working data), the search index,  |                             | moves and the version check misses); LRU        |       |
 * |             | and the HTTP bodies (plain, gzip, br) of that version     |                             | (a version a search read evicts only versions   |       |
 * |             |                                                           |                             | asked for less often; uses sketched, ≤ 64 KiB)  |       |
 * | `merges`    | prepared merges of several stored configs (`/query` with  | the names and versions, in  | any part's new version (it is in the key); LRU; | 9.5 % |
 * |             | `configs`) asked at least twice recently                  | order                       | built from the parts' prepared forms            |       |
 * | `responses` | whole read answers (`/search`, `/query`, `/cherry-pick`,  | route + request text        | any write (change token), the answer's own time | 18.5 % |
 * |             | `GET /configs`) asked at least twice recently             | (≤ 8 KiB; never inline      | limit (expression analysis: `:time:`, search    |       |
 * |             |                                                           | configs)                    | ages), randomness or custom handlers: not kept  |       |
 * | `keys`      | access keys found by their secret's digest, with when     | the secret's SHA-256        | a revoke through this process (at once); their  | 0.5 % |
 * |             | their use was last recorded (`keys/key-lookup.ts`)        |                             | time limit (500 ms: other processes); LRU       |       |
 * | `robots`    | the link checker's parsed robots.txt of each origin, with | the origin                  | its age (a day; an origin whose robots.txt did  | 0.5 % |
 * |             | when it was read (`link-health/robots-rules.ts`)          |                             | not answer: 5 minutes); LRU                     |       |
 * | `readable`  | the stored names (and versions) a caller may read, per    | the read view (its sorted   | any write (the change token is kept with the    | 0.5 % |
 * |             | set of name patterns, for lists and searches              | name patterns)              | entry and must match); LRU                      |       |
 * | `summaries` | per config, the buckets of its version's text (trigrams,  | config name                 | a newer version replaces it; one whose version  | 5 %   |
 * |             | word pairs, tags) across configs (`summary-index.ts`):    |                             | is not the current one is ignored; fixed size   |       |
 * |             | what a search can rule out without reading the config     |                             | per config by its distinct terms (256 B–8 KiB), |       |
 * |             |                                                           |                             | none kept beyond the budget                     |       |
 * | `patterns`  | `/search` patterns (`regex`, `config`) compiled with      | the pattern's text          | nothing to invalidate (a pattern's meaning      | 0.5 % |
 * |             | re2js, with the literals a match needs                    |                             | never changes); LRU, about 12 KiB each          |       |
 * | `published` | as `versions`, for the published view (`/published`): the | config name                 | a publish, unpublish or delete of that name     | 5 %   |
 * |             | version each publish record serves                        |                             | (the view's state token moves); LRU             |       |
 *
 * A version a write made keeps its stored text too (weighed with it): the next write of that name makes its
 * history delta from it (`WriteOptions.heldText`) instead of reading the text back inside its transaction.
 *
 * Nothing computed from request-supplied configs is cached: inline configs are prepared per request and
 * dropped. The unit of reuse is the stored version (`versions/config-version.ts`); anything derived from it
 * hangs off it and dies with it. The caches hold versions without knowing what they are made of.
 */
import type { PreparedConfig } from '@linkconfig/shared';
import { Doorkeeper } from './doorkeeper.js';
import { ResponseCache } from './response-cache.js';
import { FrequencySketch } from './frequency-sketch.js';
import { SummaryIndex } from './summary-index.js';
import { WeightedLru } from './weighted-lru.js';
import type { CacheStats } from './weighted-lru.js';

/** Default `CACHE_BYTES`. */
export const DEFAULT_CACHE_BYTES = 256 * 1024 * 1024;

/** The shares of `CACHE_BYTES`, as in the table above. */
export const CACHE_SHARES = {
  versions: 0.6,
  published: 0.05,
  merges: 0.095,
  responses: 0.185,
  keys: 0.005,
  robots: 0.005,
  readable: 0.005,
  summaries: 0.05,
  patterns: 0.005,
} as const;

/** What {@link VersionCache} holds: one stored version of a name, weighed, telling when it grows. */
export interface CachedVersion {
  readonly name: string;
  readonly version: number;
  /** The memory the version keeps alive, in bytes. */
  readonly weight: number;
  /** Set by the cache that holds the version: called when {@link weight} changes. */
  onWeightChange: (() => void) | undefined;
}

/** The per-name cache of stored versions; an entry is valid only for the version it was built from. */
export class VersionCache<V extends CachedVersion = CachedVersion> {
  readonly #lru: WeightedLru<string, V>;
  /** How often each name was asked for lately (weighed in the budget): what {@link offer} admits. */
  readonly #uses: FrequencySketch;

  /** `uses`: by default one counter per 64 bytes of budget, at most 64 KiB in all. */
  constructor(
    budget: number,
    name = 'versions',
    uses = new FrequencySketch(Math.min(32_768, Math.floor(budget / 128))),
  ) {
    this.#uses = uses;
    this.#lru = new WeightedLru({ name, budget: budget - uses.bytes });
  }

  /**
   * The cached view of `name` at exactly `version`; a view of another version is dropped. Counts a use of
   * the name, held or not.
   */
  get(name: string, version: number): V | undefined {
    this.#uses.increment(name);
    const view = this.#lru.get(name);
    if (view === undefined || view.version === version) return view;
    this.delete(name);
    return undefined;
  }

  /** The view held for `name`, whatever its version, without counting a use (a write checks its version). */
  peek(name: string): V | undefined {
    return this.#lru.peek(name);
  }

  /** Keeps `view` as the current version of its name, re-weighed whenever one of its parts is built. */
  set(view: V): void {
    const old = this.#lru.peek(view.name);
    this.#watch(view, old, this.#lru.set(view.name, view, view.weight));
  }

  /**
   * Keeps `view` as {@link set} does if it fits beside the versions held; else only if its name was asked
   * for ({@link get}) more than twice as often lately as each least recently used version it would evict:
   * for a request that reads more configs than the cache holds (a search), so a scan does not flush the
   * versions other requests use (nor one scanned version another, each asked for as often), while the
   * configs most searches read (the first ones, where a search stops at its limit) take the place of
   * those only scans read. What it cannot keep is garbage while still young. Returns whether it was kept.
   */
  offer(view: V): boolean {
    const old = this.#lru.peek(view.name);
    if (old === view) return true;
    const kept =
      this.#lru.setIfRoom(view.name, view, view.weight) ||
      (this.#asksMoreThanVictims(view.name, view.weight) &&
        this.#lru.set(view.name, view, view.weight));
    if (kept) this.#watch(view, old, true);
    return kept;
  }

  /**
   * Whether {@link offer} would keep a version of `name` that weighs `weight` (nothing changes): a search
   * builds the parts it would offer only for a version the cache would keep.
   */
  admits(name: string, weight: number): boolean {
    return (
      this.#lru.hasRoom(name, weight) || this.#asksMoreThanVictims(name, weight)
    );
  }

  /** Whether `key` was asked for more than twice as often as each version making room for `weight`. */
  #asksMoreThanVictims(key: string, weight: number): boolean {
    const uses = this.#uses.estimate(key);
    const held = this.#lru.peek(key)?.weight ?? 0;
    let excess = this.#lru.bytes - held + weight - this.#lru.budget;
    if (uses === 0 || weight > this.#lru.budget) return false;
    for (const [name, victim] of this.#lru.oldest()) {
      if (excess <= 0) break;
      if (name === key) continue;
      // More than twice as often: versions asked for about as often (a scan) do not trade places.
      if (2 * this.#uses.estimate(name) >= uses) return false;
      excess -= victim;
    }
    return excess <= 0;
  }

  /** After `view` took the place of `old` (`kept`) or was refused: only a held view is re-weighed. */
  #watch(view: V, old: V | undefined, kept: boolean): void {
    if (old !== undefined && old !== view) old.onWeightChange = undefined;
    view.onWeightChange = kept
      ? () => {
          if (this.#lru.peek(view.name) === view) {
            this.#lru.reweigh(view.name, view.weight);
          }
        }
      : undefined;
  }

  delete(name: string): void {
    const old = this.#lru.peek(name);
    if (old !== undefined) old.onWeightChange = undefined;
    this.#lru.delete(name);
  }

  stats(): CacheStats {
    return this.#lru.stats();
  }
}

/**
 * Prepared merges of several stored configs, admitted from their second request on (doorkeeper): most
 * combinations a client sends are new, and a merge is cheap to build from its parts, so only the ones
 * that repeat are worth their memory.
 */
export class MergeCache {
  readonly #lru: WeightedLru<string, PreparedConfig>;
  readonly #doorkeeper = new Doorkeeper();

  constructor(budget: number) {
    this.#lru = new WeightedLru({ name: 'merges', budget });
  }

  get(key: string): PreparedConfig | undefined {
    return this.#lru.get(key);
  }

  /** Keeps `merged` when `key` was asked for recently; returns whether it was kept. */
  offer(key: string, merged: PreparedConfig, weight: number): boolean {
    return this.#doorkeeper.admit(key) && this.#lru.set(key, merged, weight);
  }

  stats(): CacheStats {
    return this.#lru.stats();
  }
}

/** The stored names a read view may read, as of one change token (`E`: a name's catalog entry). */
export interface ReadableNames<E extends { readonly name: string }> {
  readonly entries: readonly E[];
  readonly names: readonly string[];
}

/**
 * The names each read view (a set of name patterns, `RequestAuth.readView`) may read among the stored
 * ones, worked out once per change token instead of once per request: a list or a search by a key with
 * many patterns matches every name only when the names change.
 */
export class ReadableCache<E extends { readonly name: string }> {
  readonly #lru: WeightedLru<
    string,
    { readonly token: string; readonly readable: ReadableNames<E> }
  >;

  constructor(budget: number) {
    this.#lru = new WeightedLru({ name: 'readable', budget });
  }

  /** What `view` may read as of `token`, if worked out for that token. */
  get(view: string, token: string): ReadableNames<E> | undefined {
    const kept = this.#lru.get(view);
    return kept?.token === token ? kept.readable : undefined;
  }

  /** Keeps what `view` may read as of `token` (in place of what it could read before). */
  set(view: string, token: string, readable: ReadableNames<E>): void {
    // Two arrays of references, the key's text and the entry.
    const weight =
      96 + 2 * (view.length + token.length) + 16 * readable.entries.length;
    this.#lru.set(view, { token, readable }, weight);
  }

  stats(): CacheStats {
    return this.#lru.stats();
  }
}

/**
 * All caches of one server (`K`: what the key lookup keeps per key; `R`: what the link checker keeps of an
 * origin's robots.txt; `E`: a name's catalog entry; `P`: a compiled search pattern).
 */
export interface Caches<
  V extends CachedVersion = CachedVersion,
  K = unknown,
  R = unknown,
  E extends { readonly name: string } = { readonly name: string },
  P = unknown,
> {
  readonly versions: VersionCache<V>;
  /** The versions the published view serves (a name's draft and published versions side by side). */
  readonly published: VersionCache<V>;
  readonly merges: MergeCache;
  readonly responses: ResponseCache;
  readonly keys: WeightedLru<string, K>;
  readonly robots: WeightedLru<string, R>;
  readonly readable: ReadableCache<E>;
  readonly summaries: SummaryIndex;
  readonly patterns: WeightedLru<string, P>;
  /** Counters of every cache, for `/metrics`. */
  stats(): CacheStats[];
}

/** Builds the caches for a `CACHE_BYTES` budget. */
export function createCaches<
  V extends CachedVersion,
  K = unknown,
  R = unknown,
  E extends { readonly name: string } = { readonly name: string },
  P = unknown,
>(cacheBytes: number = DEFAULT_CACHE_BYTES): Caches<V, K, R, E, P> {
  const versions = new VersionCache<V>(cacheBytes * CACHE_SHARES.versions);
  const published = new VersionCache<V>(
    cacheBytes * CACHE_SHARES.published,
    'published',
  );
  const merges = new MergeCache(cacheBytes * CACHE_SHARES.merges);
  const responses = new ResponseCache({
    budget: cacheBytes * CACHE_SHARES.responses,
  });
  const keys = new WeightedLru<string, K>({
    name: 'keys',
    budget: cacheBytes * CACHE_SHARES.keys,
  });
  const robots = new WeightedLru<string, R>({
    name: 'robots',
    budget: cacheBytes * CACHE_SHARES.robots,
  });
  const readable = new ReadableCache<E>(cacheBytes * CACHE_SHARES.readable);
  const summaries = new SummaryIndex({
    budget: cacheBytes * CACHE_SHARES.summaries,
  });
  const patterns = new WeightedLru<string, P>({
    name: 'patterns',
    budget: cacheBytes * CACHE_SHARES.patterns,
  });
  return {
    versions,
    published,
    merges,
    responses,
    keys,
    robots,
    readable,
    summaries,
    patterns,
    stats: () => [
      versions.stats(),
      published.stats(),
      merges.stats(),
      responses.stats(),
      keys.stats(),
      robots.stats(),
      readable.stats(),
      summaries.stats(),
      patterns.stats(),
    ],
  };
}
