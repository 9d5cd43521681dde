/**
 * A summary of each config's version as a set of buckets (what its text holds, hashed: trigrams and tags,
 * see `versions/search-summary.ts`), kept across configs as bit-sliced signatures: for each bucket, one bit
 * per config. The configs whose summary holds every bucket of a query's terms are the AND of those
 * buckets' bits: a few word operations per 32 configs, so a search rules out a config without reading it.
 *
 * A summary is kept for one version of a name; a name whose summary is missing or for another version must
 * be searched as before. The memory is fixed per slot (`buckets / 8` bytes per config, allocated 32 at a
 * time), and the slots are
 * as many as the budget allows (`cache-policy.ts`); a name that finds none is simply not summarized.
 */
import type { CacheStats } from './weighted-lru.js';

/** Configs per chunk: one 32-bit word per bucket. */
const CHUNK = 32;

/** Options of {@link SummaryIndex}. */
export interface SummaryIndexOptions {
  /** Bytes the index may keep. */
  readonly budget: number;
  /** Buckets per summary (a power of two). */
  readonly buckets?: number;
}

/** See the module comment. */
export class SummaryIndex {
  /** Buckets per summary (a power of two): bucket numbers are taken modulo it. */
  readonly buckets: number;
  readonly #budget: number;
  readonly #capacity: number;
  readonly #slotOf = new Map<string, number>();
  /** Per slot: the name and version summarized, or undefined for a free slot. */
  readonly #slots: ({ name: string; version: number } | undefined)[] = [];
  readonly #free: number[] = [];
  /** Per chunk of 32 slots, one word per bucket: the bucket's bits of the chunk's slots. */
  readonly #chunks: Uint32Array[] = [];
  #hits = 0;
  #misses = 0;
  #refused = 0;
  /** Bumped whenever a summary is added or dropped (views computed from the index check it). */
  generation = 0;

  constructor(options: SummaryIndexOptions) {
    this.buckets = options.buckets ?? 8192;
    this.#budget = options.budget;
    const perChunk = this.buckets * 4;
    this.#capacity = Math.floor(options.budget / perChunk) * CHUNK;
  }

  /** The version of `name` whose summary is kept, or undefined. */
  versionOf(name: string): number | undefined {
    const slot = this.#slotOf.get(name);
    return slot === undefined ? undefined : this.#slots[slot]?.version;
  }

  /** The slot holding the summary of `name` at `version`, or undefined (none, or one of another version). */
  slotAt(name: string, version: number): number | undefined {
    const slot = this.#slotOf.get(name);
    return slot !== undefined && this.#slots[slot]?.version === version
      ? slot
      : undefined;
  }

  /** Slots in use or freed so far: every slot number is below it. */
  get slotCount(): number {
    return this.#slots.length;
  }

  /**
   * Keeps the summary of `name` at `version` (its buckets, taken modulo {@link buckets}), replacing the
   * name's earlier one. Returns whether it was kept (false: no slot left within the budget).
   */
  set(name: string, version: number, buckets: Iterable<number>): boolean {
    const slot = this.#slotOf.get(name) ?? this.#newSlot();
    if (slot === undefined) {
      this.#refused++;
      return false;
    }
    this.#clear(slot);
    const chunk = this.#chunks[Math.floor(slot / CHUNK)];
    const bit = 1 << (slot % CHUNK);
    const mask = this.buckets - 1;
    if (chunk !== undefined) {
      for (const b of buckets) chunk[b & mask] = (chunk[b & mask] ?? 0) | bit;
    }
    this.#slotOf.set(name, slot);
    this.#slots[slot] = { name, version };
    this.generation++;
    return true;
  }

  /** Drops the summary of `name`, if any. */
  delete(name: string): void {
    const slot = this.#slotOf.get(name);
    if (slot === undefined) return;
    this.#clear(slot);
    this.#slotOf.delete(name);
    this.#slots[slot] = undefined;
    this.#free.push(slot);
    this.generation++;
  }

  /**
   * The slots ({@link slotAt}) whose summary holds every bucket of at least one of `alternatives` (each a
   * list of bucket numbers), ascending. Names without a summary are not among them: the caller searches
   * those anyway.
   */
  candidates(alternatives: readonly (readonly number[])[]): number[] {
    const out: number[] = [];
    const mask = this.buckets - 1;
    for (const [c, chunk] of this.#chunks.entries()) {
      let any = 0;
      for (const all of alternatives) {
        let acc = 0xffffffff;
        for (const b of all) {
          acc &= chunk[b & mask] ?? 0;
          if (acc === 0) break;
        }
        any |= acc;
      }
      while (any !== 0) {
        const low = any & -any;
        const slot = c * CHUNK + 31 - Math.clz32(low);
        if (this.#slots[slot] !== undefined) out.push(slot);
        any ^= low;
      }
    }
    if (out.length > 0) this.#hits++;
    else this.#misses++;
    return out;
  }

  /** Counters for `/metrics` (`evictions`: summaries refused for want of room). */
  stats(): CacheStats {
    return {
      name: 'summaries',
      entries: this.#slotOf.size,
      bytes: this.#chunks.length * this.buckets * 4,
      budget: this.#budget,
      hits: this.#hits,
      misses: this.#misses,
      evictions: this.#refused,
    };
  }

  #newSlot(): number | undefined {
    const free = this.#free.pop();
    if (free !== undefined) return free;
    const slot = this.#slots.length;
    if (slot >= this.#capacity) return undefined;
    this.#slots.push(undefined);
    if (slot % CHUNK === 0) this.#chunks.push(new Uint32Array(this.buckets));
    return slot;
  }

  #clear(slot: number): void {
    const chunk = this.#chunks[Math.floor(slot / CHUNK)];
    if (chunk === undefined) return;
    const keep = ~(1 << (slot % CHUNK));
    for (let b = 0; b < this.buckets; b++) chunk[b] = (chunk[b] ?? 0) & keep;
  }
}
