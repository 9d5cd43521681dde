/**
 * A summary of each config's version as a set of buckets (what its text holds, hashed: trigrams, word
 * pairs and tags, see `versions/search-summary.ts`), kept across configs as bit-sliced signatures: for
 * each bucket, one bit per config. Each term sets two buckets (two parts of its 32-bit hash mixed with
 * the seed of its chunk of 32 configs, as a Bloom filter does), and the configs whose summary holds both
 * buckets of every term of a query are the AND of those buckets' bits: a few word operations per 32
 * configs, so a search rules out a config without reading it.
 *
 * Summaries come in size classes (1,024 to 65,536 buckets), each its own bit-sliced table: a config goes to
 * the smallest class with {@link BUCKETS_PER_TERM} buckets per distinct term it holds, so a quarter to a
 * third of its buckets are set whatever its size, and a term it lacks passes with a chance of about one in
 * ten (a query of several terms, with that chance's power). One bucket count for all would either let a
 * 500-link config (some 5,000 distinct terms) set most of its buckets, so that a no-match word passes by
 * chance and the config is read, or spend on a 5-link config what a 500-link one needs.
 *
 * Word pairs are kept only by the classes from {@link PAIRS_FROM} buckets on: a small config holds few
 * phrases and is cheap to read, and its pairs (a third of its terms) would fill the buckets its words need
 * against no-match words. A query's pairs are asked only of those classes.
 *
 * A summary is kept for one version of a name; a name whose summary is missing or for another version must
 * be searched as before. The memory is fixed per slot (`buckets / 8` bytes per config of its class,
 * allocated 32 slots at a time, and {@link SLOT_BYTES} of bookkeeping), within a byte budget (`cache-policy.ts`); a name that finds no room is
 * simply not summarized.
 */
import type { CacheStats } from './weighted-lru.js';

/** Configs per chunk: one 32-bit word per bucket. */
const CHUNK = 32;
/** Buckets of the smallest class (a power of two); each class has twice the buckets of the one before. */
const SMALLEST = 1024;
/** Number of classes: 1,024 … 65,536 buckets. */
const CLASSES = 7;
/**
 * Buckets per distinct term a class must have to take a summary (at most 1 − e^(−2/4) ≈ 39 % of them set,
 * about 30 % as measured on the benchmark's configs: 4 to 8 buckets a term). With 8 the 10,000 configs of
 * 50 links would need twice the budget.
 */
const BUCKETS_PER_TERM = 4;

/** The smallest class that keeps word pairs: configs of more than 2,048 distinct terms with them. */
const PAIRS_FROM = 16_384;

/** What a config's version holds, hashed: its words' trigrams and its tags, and its word pairs apart. */
export interface SummarySets {
  readonly terms: ReadonlySet<number>;
  readonly pairs: ReadonlySet<number>;
}

/**
 * One way a config may hold a match: the hashes its summary must hold (of `pairs`, only in a class that
 * keeps word pairs).
 */
export interface SummaryWay {
  readonly terms: readonly number[];
  readonly pairs: readonly number[];
}

/**
 * What one slot costs besides its bits: its `{ name, version }` entry, the name's map entry, and the
 * slot-to-position entries a view across classes keeps (`config-candidates.ts`, one per class).
 */
export const SLOT_BYTES = 128;

/**
 * A term's hash as chunk `salt` places it: mixed with the chunk's own seed, so each chunk of 32 configs
 * maps terms to buckets its own way. Configs drawn from one vocabulary set nearly the same buckets (the
 * benchmark's 50-link configs: 1,116 of 8,192 set in more than 90 % of them, 5,265 in fewer than 10 %),
 * so with one mapping for all a query term whose buckets fall on common ones passed in a quarter of all
 * configs at once (`qzqqv`: 2,395 of 10,000 read), while another passed nowhere; per chunk the misses are
 * independent, and a query passes about as often as the fill predicts. Its first bucket is the low bits,
 * the second the high half.
 */
function placed(b: number, salt: number): number {
  let h = b ^ Math.imul(salt + 1, 0x9e3779b9);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Options of {@link SummaryIndex}. */
export interface SummaryIndexOptions {
  /** Bytes the index may keep. */
  readonly budget: number;
}

/** One size class: its own bit-sliced table over its own slots. */
interface SizeClass {
  readonly buckets: number;
  /** Per local slot: the name and version summarized, or undefined for a free slot. */
  readonly slots: ({ name: string; version: number } | undefined)[];
  readonly free: number[];
  /** Per chunk of 32 local slots, one word per bucket: the bucket's bits of the chunk's slots. */
  readonly chunks: Uint32Array[];
}

/** The class for `terms` distinct terms: the smallest with enough buckets, else the largest. */
function classFor(terms: number): number {
  let c = 0;
  while (c < CLASSES - 1 && SMALLEST << c < terms * BUCKETS_PER_TERM) c++;
  return c;
}

/**
 * The class of a summary, and whether it keeps the word pairs: with them when that puts it in a class from
 * {@link PAIRS_FROM} on, else by its other terms alone (a class below).
 */
function classOf(sets: SummarySets): { c: number; pairs: boolean } {
  const withPairs = classFor(sets.terms.size + sets.pairs.size);
  return SMALLEST << withPairs >= PAIRS_FROM
    ? { c: withPairs, pairs: true }
    : { c: classFor(sets.terms.size), pairs: false };
}

/**
 * See the module comment. Slots are numbered across classes (`local slot × classes + class`), so callers
 * index one array by them.
 */
export class SummaryIndex {
  readonly #budget: number;
  #bytes = 0;
  readonly #classes: SizeClass[] = Array.from({ length: CLASSES }, (_, c) => ({
    buckets: SMALLEST << c,
    slots: [],
    free: [],
    chunks: [],
  }));
  readonly #slotOf = new Map<string, number>();
  #hits = 0;
  #misses = 0;
  #refused = 0;
  /** Bumped whenever a summary is added or dropped (views computed from the index check it). */
  generation = 0;

  constructor(options: SummaryIndexOptions) {
    this.#budget = options.budget;
  }

  /** The version of `name` whose summary is kept, or undefined. */
  versionOf(name: string): number | undefined {
    const slot = this.#slotOf.get(name);
    return slot === undefined ? undefined : this.#entry(slot)?.version;
  }

  /** The slot holding the summary of `name` at `version`, or undefined (none, or one of another version). */
  slotAt(name: string, version: number): number | undefined {
    const slot = this.#slotOf.get(name);
    return slot !== undefined && this.#entry(slot)?.version === version
      ? slot
      : undefined;
  }

  /** Every slot number is below it. */
  get slotCount(): number {
    let most = 0;
    for (const k of this.#classes) most = Math.max(most, k.slots.length);
    return most * CLASSES;
  }

  /**
   * Keeps the summary of `name` at `version` (its distinct buckets, each taken modulo its class's bucket
   * count), replacing the name's earlier one. Returns whether it was kept (false: no room within the
   * budget; the earlier one is dropped then).
   */
  set(name: string, version: number, sets: SummarySets): boolean {
    const { c, pairs } = classOf(sets);
    const old = this.#slotOf.get(name);
    if (old !== undefined && old % CLASSES !== c) this.delete(name);
    const slot = this.#slotOf.get(name) ?? this.#newSlot(c);
    if (slot === undefined) {
      this.delete(name);
      this.#refused++;
      return false;
    }
    const local = Math.floor(slot / CLASSES);
    const k = this.#classes[c] as SizeClass;
    this.#clear(k, local);
    const n = Math.floor(local / CHUNK);
    const chunk = k.chunks[n];
    const bit = 1 << (local % CHUNK);
    const mask = k.buckets - 1;
    if (chunk !== undefined) {
      for (const buckets of pairs ? [sets.terms, sets.pairs] : [sets.terms]) {
        for (const b of buckets) {
          const h = placed(b, n);
          chunk[h & mask] = (chunk[h & mask] ?? 0) | bit;
          const b2 = (h >>> 16) & mask;
          chunk[b2] = (chunk[b2] ?? 0) | bit;
        }
      }
    }
    this.#slotOf.set(name, slot);
    k.slots[local] = { name, version };
    this.generation++;
    return true;
  }

  /** Drops the summary of `name`, if any. */
  delete(name: string): void {
    const slot = this.#slotOf.get(name);
    if (slot === undefined) return;
    const k = this.#classes[slot % CLASSES] as SizeClass;
    const local = Math.floor(slot / CLASSES);
    this.#clear(k, local);
    this.#slotOf.delete(name);
    k.slots[local] = undefined;
    k.free.push(local);
    this.#shrink(k);
    this.generation++;
  }

  /**
   * The slots ({@link slotAt}) whose summary holds every term of at least one of `ways`. Names without a
   * summary are not among them: the caller searches those anyway.
   */
  candidates(ways: readonly SummaryWay[]): number[] {
    const out: number[] = [];
    for (const [c, k] of this.#classes.entries()) {
      const pairs = k.buckets >= PAIRS_FROM;
      for (const [n, chunk] of k.chunks.entries()) {
        let any = 0;
        for (const way of ways) {
          const acc = allOf(chunk, n, way.terms);
          any |= pairs && acc !== 0 ? acc & allOf(chunk, n, way.pairs) : acc;
        }
        while (any !== 0) {
          const low = any & -any;
          const local = n * CHUNK + 31 - Math.clz32(low);
          if (k.slots[local] !== undefined) out.push(local * CLASSES + c);
          any ^= low;
        }
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
      bytes: this.#bytes,
      budget: this.#budget,
      hits: this.#hits,
      misses: this.#misses,
      evictions: this.#refused,
    };
  }

  #entry(slot: number): { name: string; version: number } | undefined {
    return this.#classes[slot % CLASSES]?.slots[Math.floor(slot / CLASSES)];
  }

  /** A free slot of class `c`, a new chunk of them when the budget has room, else undefined. */
  #newSlot(c: number): number | undefined {
    const k = this.#classes[c] as SizeClass;
    const free = k.free.pop();
    if (free !== undefined) return free * CLASSES + c;
    const local = k.slots.length;
    const bytes = (local % CHUNK === 0 ? k.buckets * 4 : 0) + SLOT_BYTES;
    if (this.#bytes + bytes > this.#budget) return undefined;
    this.#bytes += bytes;
    if (local % CHUNK === 0) k.chunks.push(new Uint32Array(k.buckets));
    k.slots.push(undefined);
    return local * CLASSES + c;
  }

  /**
   * Gives back the class's last chunks while none of their slots is in use, so the bytes of configs that
   * moved to another class (or were dropped) can hold summaries again.
   */
  #shrink(k: SizeClass): void {
    while (k.chunks.length > 0) {
      const first = (k.chunks.length - 1) * CHUNK;
      for (let local = first; local < k.slots.length; local++) {
        if (k.slots[local] !== undefined) return;
      }
      k.chunks.pop();
      this.#bytes -= k.buckets * 4 + (k.slots.length - first) * SLOT_BYTES;
      k.slots.length = first;
      const kept = k.free.filter((local) => local < first);
      k.free.length = 0;
      k.free.push(...kept);
    }
  }

  #clear(k: SizeClass, local: number): void {
    const chunk = k.chunks[Math.floor(local / CHUNK)];
    if (chunk === undefined) return;
    const keep = ~(1 << (local % CHUNK));
    for (let b = 0; b < k.buckets; b++) chunk[b] = (chunk[b] ?? 0) & keep;
  }
}

/** The bits of chunk `n`'s slots whose summary holds every one of `terms` (a chunk has a word per bucket). */
function allOf(
  chunk: Uint32Array,
  n: number,
  terms: readonly number[],
): number {
  const mask = chunk.length - 1;
  let out = 0xffffffff;
  for (const b of terms) {
    const h = placed(b, n);
    out &= (chunk[h & mask] ?? 0) & (chunk[(h >>> 16) & mask] ?? 0);
    if (out === 0) break;
  }
  return out;
}
