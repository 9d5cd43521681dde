/**
 * Per-prepared-config working data of the evaluator, built lazily on first use and kept as long as the
 * prepared config lives (a WeakMap, so nothing leaks): links by catalog position, tag lists as
 * positions, timestamps and locations as typed arrays, collation ranks per sort field, results of
 * clock-independent search atoms, and a generation-stamped marker array for linear-time set operations.
 * None of it changes a result; it only keeps long operator chains and repeated scans cheap on big configs.
 */
import { createdAtTimestamp, timeProtocolTimestamp } from './timestamps.js';
import type { PreparedConfig, PreparedLink } from './types.js';

/** An ordered list of distinct catalog positions. */
export type PosList = readonly number[];

/** Lazily built working data of one prepared config. */
export class EngineCache {
  readonly prepared: PreparedConfig;
  /** Number of links. */
  readonly size: number;
  /** Prepared links by catalog position. */
  readonly links: readonly PreparedLink[];
  readonly #tags = new Map<string, PosList>();
  readonly #marks: Uint32Array;
  #generation = 0;
  #lastMarked: PosList | undefined;
  #createdAt: Float64Array | undefined;
  #timeStamps: Float64Array | undefined;
  #locations: Float64Array | undefined;
  #sortedCreatedAt: Float64Array | undefined;
  #sortedTimeStamps: Float64Array | undefined;
  /** Collation ranks of every link by sort field (see refiners). */
  readonly sortRanks = new Map<string, Int32Array>();
  /** Items sorted by direct comparison so far, per field, until ranks pay off (see refiners). */
  readonly directSortWork = new Map<string, number>();
  /** Per field, a number per link that is equal exactly when the field texts are equal (`*unique*`). */
  readonly valueIds = new Map<string, Int32Array>();
  /** Search-atom results that do not depend on the clock, by key and field selection. */
  readonly searchResults = new Map<string, PosList>();

  constructor(prepared: PreparedConfig) {
    this.prepared = prepared;
    this.size = prepared.ids.length;
    this.links = prepared.ids.map(
      (id) => prepared.links.get(id) ?? { url: '' },
    );
    this.#marks = new Uint32Array(this.size);
  }

  /** The positions of the links tagged `tag`, in catalog order (only known tags are cached). */
  tag(tag: string): PosList {
    let list = this.#tags.get(tag);
    if (list === undefined) {
      const ids = this.prepared.tagIndex.get(tag);
      if (ids === undefined) return [];
      const { position } = this.prepared;
      const positions: number[] = [];
      for (const id of ids) {
        const pos = position.get(id);
        if (pos !== undefined) positions.push(pos);
      }
      list = positions;
      this.#tags.set(tag, list);
    }
    return list;
  }

  /** Starts a new marking round; returns its stamp. */
  newMark(): number {
    this.#lastMarked = undefined;
    this.#generation++;
    if (this.#generation === 0xffffffff) {
      this.#marks.fill(0);
      this.#generation = 1;
    }
    return this.#generation;
  }

  /**
   * A stamp under which every member of `list` is marked. Marking the list that the latest round
   * marked, with no round started since, reuses that round (long chains such as `A | B | A | B …`
   * keep returning the same left operand).
   */
  markList(list: PosList): number {
    if (this.#lastMarked === list && this.#generation !== 0) {
      return this.#generation;
    }
    const stamp = this.newMark();
    this.mark(list, stamp);
    this.#lastMarked = list;
    return stamp;
  }

  /** Marks `positions` with `stamp`. */
  mark(positions: PosList, stamp: number): void {
    for (const pos of positions) this.#marks[pos] = stamp;
  }

  /** Marks one position with `stamp`. */
  markOne(pos: number, stamp: number): void {
    this.#marks[pos] = stamp;
  }

  /** Whether `pos` carries `stamp`. */
  isMarked(pos: number, stamp: number): boolean {
    return this.#marks[pos] === stamp;
  }

  /** `createdAt` timestamps by position (docs/expression-reference.md §8.3), 0 when missing or invalid. */
  get createdAt(): Float64Array {
    this.#createdAt ??= Float64Array.from(this.links, createdAtTimestamp);
    return this.#createdAt;
  }

  /** `:time:` timestamps by position (docs/expression-reference.md §10.2), 0 when undated. */
  get timeStamps(): Float64Array {
    this.#timeStamps ??= Float64Array.from(this.links, timeProtocolTimestamp);
    return this.#timeStamps;
  }

  /** The dated `createdAt` timestamps (not 0, not NaN), ascending: for expression analysis. */
  get sortedCreatedAt(): Float64Array {
    this.#sortedCreatedAt ??= sortedDated(this.createdAt);
    return this.#sortedCreatedAt;
  }

  /** The dated `:time:` timestamps (not 0, not NaN), ascending: for expression analysis. */
  get sortedTimeStamps(): Float64Array {
    this.#sortedTimeStamps ??= sortedDated(this.timeStamps);
    return this.#sortedTimeStamps;
  }

  /**
   * `[lat, lng]` pairs by position (docs/expression-reference.md §10.3); NaN pairs for links without a
   * location.
   */
  get locations(): Float64Array {
    if (this.#locations === undefined) {
      const out = new Float64Array(this.size * 2).fill(NaN);
      this.links.forEach((link, pos) => {
        const location = link.meta?.['location'];
        if (!Array.isArray(location) || location.length !== 2) return;
        const [lat, lng] = location as unknown[];
        if (typeof lat !== 'number' || typeof lng !== 'number') return;
        out[pos * 2] = lat;
        out[pos * 2 + 1] = lng;
      });
      this.#locations = out;
    }
    return this.#locations;
  }
}

/** The values of `stamps` that can match a time filter (0 and NaN never do), ascending. */
function sortedDated(stamps: Float64Array): Float64Array {
  return stamps.filter((ts) => ts !== 0 && !Number.isNaN(ts)).sort();
}

const caches = new WeakMap<PreparedConfig, EngineCache>();

/** The working data of `prepared`, created on first use. */
export function engineCache(prepared: PreparedConfig): EngineCache {
  let cache = caches.get(prepared);
  if (cache === undefined) {
    cache = new EngineCache(prepared);
    caches.set(prepared, cache);
  }
  return cache;
}
