/**
 * Which configs a search must read: with the summaries kept across configs (`cache/summary-index.ts`),
 * only those whose summary allows a match, and those without a summary of their current version; in
 * catalog order, as the search walks them. Every config read is summarized on the way, so after one
 * search that reads everything, later searches read only what may match.
 */
import type { SummaryIndex, SummaryWay } from '../cache/summary-index.js';
import type { NameVersion } from '../storage/config-repository.js';
import type { ConfigSearchIndex } from '../versions/search-index.js';
import { summaryBuckets } from '../versions/search-summary.js';

/**
 * Where each summary slot's config sits in one catalog listing (-1: not in it, or summarized at another
 * version), and the positions whose summary is missing or old.
 */
interface View {
  readonly entries: readonly NameVersion[];
  readonly generation: number;
  readonly positionOfSlot: Int32Array;
  readonly unsummarized: readonly number[];
}

/** See the module comment. */
export class ConfigCandidates {
  readonly #summaries: SummaryIndex | undefined;
  #view: View | undefined;

  /** Without summaries every config is a candidate. */
  constructor(summaries: SummaryIndex | undefined) {
    this.#summaries = summaries;
  }

  /**
   * The positions in `entries` (ascending, lazily: a search that stops at its limit walks no further) of
   * the configs a search must read, given the ways one of which a config must hold every term of
   * (`summaryQuery`); `undefined` when every config must be read.
   */
  positions(
    entries: readonly NameVersion[],
    query: readonly SummaryWay[] | null,
  ): Iterable<number> | undefined {
    const summaries = this.#summaries;
    if (summaries === undefined || query === null) return undefined;
    const view = this.#viewOf(entries, summaries);
    const read = new Uint8Array(entries.length);
    for (const at of view.unsummarized) read[at] = 1;
    for (const slot of summaries.candidates(query)) {
      const at = view.positionOfSlot[slot] ?? -1;
      if (at >= 0) read[at] = 1;
    }
    return marked(read);
  }

  /**
   * Whether a search has nothing to note of this version of a config: its summary is kept (or none are
   * kept at all).
   */
  summarized({ name, version }: NameVersion): boolean {
    const summaries = this.#summaries;
    return summaries === undefined || summaries.versionOf(name) === version;
  }

  /** Keeps the summary of a config a search read, unless the one of that version is kept already. */
  note(named: NameVersion, index: ConfigSearchIndex): void {
    if (this.summarized(named)) return;
    this.#summaries?.set(named.name, named.version, summaryBuckets(index));
  }

  /** The view of one listing, made again only when the listing or the summaries changed. */
  #viewOf(entries: readonly NameVersion[], summaries: SummaryIndex): View {
    const view = this.#view;
    if (view?.entries === entries && view.generation === summaries.generation) {
      return view;
    }
    const positionOfSlot = new Int32Array(summaries.slotCount).fill(-1);
    const unsummarized: number[] = [];
    for (const [at, { name, version }] of entries.entries()) {
      const slot = summaries.slotAt(name, version);
      if (slot === undefined) unsummarized.push(at);
      else positionOfSlot[slot] = at;
    }
    this.#view = {
      entries,
      generation: summaries.generation,
      positionOfSlot,
      unsummarized,
    };
    return this.#view;
  }
}

/** The positions marked in `read`, ascending. */
function* marked(read: Uint8Array): Generator<number> {
  for (let at = 0; at < read.length; at++) if (read[at] === 1) yield at;
}
