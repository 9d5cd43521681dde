import { slicePauser } from '@linkconfig/shared';
import type {
  SearchField,
  SearchInput,
  SearchOutput,
  SliceOptions,
} from '@linkconfig/shared';
import { EVENT_LOOP_SLICES } from '../event-loop.js';
import type { Outcome } from '../outcome.js';
import type { Permits } from '../permits.js';
import type { SummaryIndex } from '../cache/summary-index.js';
import type { WeightedLru } from '../cache/weighted-lru.js';
import { summaryQuery } from '../versions/search-summary.js';
import type { SummaryTerms } from '../versions/search-summary.js';
import { ConfigCandidates } from './config-candidates.js';
import { scanTurns } from './scan-permits.js';
import type { ConfigService } from './config-service.js';
import type { Readable, StateRead } from './version-catalog.js';
import { foldCase } from '../versions/fold-case.js';
import { CompiledPattern, compile, patternWeight } from './compiled-pattern.js';
import {
  candidateLinks,
  haystackSafe,
  linkContains,
} from '../versions/search-index.js';
import { regexCandidates, regexMatches, someFieldText } from './regex-links.js';
import type { RegexQuery } from './regex-links.js';
import { storedTest } from './stored-regex.js';
import { searchAnswerText } from '../versions/search-texts.js';
import type {
  ConfigSearchIndex,
  IndexedLink,
} from '../versions/search-index.js';

/** Links tested between two looks at the clock (a pause when a slice has run its time). */
const LINKS_PER_PAUSE = 256;

/** Whom a search answers: the state it reads, the names it may read, and when its client went away. */
export interface SearchFrom {
  readonly state?: StateRead | undefined;
  readonly readable?: Readable | undefined;
  /** Aborts when the client went away: a search waiting for a scan permit leaves the queue (and throws). */
  readonly signal?: AbortSignal | undefined;
}

/** A compiled `/search` request. */
interface Criteria {
  readonly tag: string | undefined;
  /** `q`, case-folded. */
  readonly q: string | undefined;
  /**
   * The pattern, with the literals a match contains (folded; all of one list) when they can be told and
   * searched for in the haystack.
   */
  readonly regex: RegexQuery | undefined;
  readonly fields: ReadonlySet<SearchField>;
}

/**
 * `GET /search`: links across configs (in name order; links in catalog order) that satisfy every given
 * criterion. Each config answers from its per-version index: exact tags from the tag map; `q`, and the
 * literals every match of `regex` must contain, from the trigram signatures (the links that may hold the
 * text) and the case-folded haystack (whether they do, in the selected fields); `regex` on re2js (linear
 * time) over what remains.
 */
export class SearchService {
  readonly #configs: ConfigService;
  readonly #slices: SliceOptions;
  readonly #candidates: ConfigCandidates;
  readonly #patterns: WeightedLru<string, CompiledPattern> | undefined;
  readonly #scans: Permits | undefined;

  /**
   * `slices`: how a search over many configs shares the event loop (between two configs); `summaries`:
   * the summaries across configs that let a search skip configs that cannot match (none: every config
   * is read); `patterns`: compiled patterns; `scans`: the permits a search holds while it works on a
   * version read from storage (`scan-permits.ts`; none: not bounded).
   */
  constructor(
    configs: ConfigService,
    slices: SliceOptions = EVENT_LOOP_SLICES,
    shared: {
      readonly summaries?: SummaryIndex;
      readonly patterns?: WeightedLru<string, CompiledPattern>;
      readonly scans?: Permits;
    } = {},
  ) {
    this.#configs = configs;
    this.#slices = slices;
    this.#candidates = new ConfigCandidates(shared.summaries);
    this.#patterns = shared.patterns;
    this.#scans = shared.scans;
  }

  /**
   * `pattern` compiled (case-insensitive), with the literals a match needs, from the cache when it holds
   * it: compiling costs re2js tens to hundreds of µs, and pages of one search repeat its pattern.
   */
  #compiled(pattern: string, what: 'regex' | 'config'): CompiledPattern {
    const kept = this.#patterns?.get(pattern);
    if (kept !== undefined) return kept;
    const compiled = new CompiledPattern(compile(pattern, what), pattern);
    this.#patterns?.set(pattern, compiled, patternWeight(pattern));
    return compiled;
  }

  /**
   * Runs one search. Its results and `configsSearched` depend only on the stored configs; `linksScanned`,
   * a count for diagnosis, also on which configs were indexed when it ran.
   */
  async search(
    input: SearchInput,
    from: SearchFrom = {},
  ): Promise<SearchOutput> {
    return (await this.searchOutcome(input, from)).value;
  }

  /** {@link search}, with the answer's JSON text written from the links' kept texts. */
  async searchOutcome(
    input: SearchInput,
    { state, readable, signal }: SearchFrom = {},
  ): Promise<Outcome<SearchOutput>> {
    const pattern =
      input.regex === undefined
        ? undefined
        : this.#compiled(input.regex, 'regex');
    const literals = pattern === undefined ? null : pattern.literals;
    const fields = new Set(input.fields);
    const criteria: Criteria = {
      tag: input.tag,
      q: input.q === undefined ? undefined : foldCase(input.q),
      regex: pattern && {
        regex: pattern.regex,
        literals:
          literals !== null && literals.every((all) => all.every(haystackSafe))
            ? literals
            : null,
        fields,
      },
      fields,
    };
    const configFilter =
      input.config === undefined
        ? undefined
        : this.#compiled(input.config, 'config').regex;
    // A search by `regex` alone may test a config read from storage without indexing it.
    const regexOnly =
      criteria.tag === undefined && criteria.q === undefined
        ? criteria.regex
        : undefined;
    const results: SearchOutput['results'] = [];
    const entries: IndexedLink[] = [];
    /** Adds a link found in config `name`; whether the limit is reached. */
    const take = (name: string, entry: IndexedLink): boolean => {
      results.push({
        configName: name,
        id: entry.id,
        link: entry.link as SearchOutput['results'][number]['link'],
      });
      entries.push(entry);
      return results.length >= input.limit;
    };
    let linksScanned = 0;
    const catalog = await this.#configs.versions(state, readable);
    // Only the configs whose summary allows a match (and those without one), when the terms tell.
    const visit =
      configFilter === undefined
        ? this.#candidates.positions(catalog, summaryQuery(terms(criteria)))
        : undefined;
    // Configs searched: every one the filter keeps, up to the one that filled the limit.
    let configsSearched = visit === undefined ? 0 : catalog.length;
    // A search that reads many configs lets other requests in between two of them, every slice.
    const pauseIfDue = slicePauser(this.#slices);
    const turn = scanTurns(this.#scans, signal);
    for (const at of visit ?? allPositions(catalog.length)) {
      const named = catalog[at];
      if (named === undefined) continue;
      const { name, version } = named;
      const paused = pauseIfDue();
      if (paused !== undefined) await paused;
      if (configFilter !== undefined && !configFilter.test(name)) {
        continue;
      }
      // A cached version without a promise per config; one not cached is read and then offered, under a
      // scan permit held until the search is done with it (its memory is in no cache's budget).
      const cached = this.#configs.cachedAt(name, version);
      const release = cached === undefined ? await turn() : undefined;
      try {
        const current =
          cached === undefined ? await this.#configs.readVersion(name) : cached;
        if (current === null) {
          if (visit !== undefined) configsSearched--;
          continue;
        }
        if (visit === undefined) configsSearched++;
        // Read from storage, summarized, for a regex alone: maybe tested without an index (`stored-regex.ts`).
        const found =
          cached === undefined &&
          regexOnly !== undefined &&
          this.#candidates.summarized(named)
            ? storedTest(current, regexOnly, (v) =>
                this.#configs.keepsIndexed(v),
              )
            : undefined;
        if (found !== undefined) {
          for (const entry of found) {
            if (++linksScanned % LINKS_PER_PAUSE === 0) {
              const paused = pauseIfDue();
              if (paused !== undefined) await paused;
            }
            if (entry !== null && take(name, entry)) break;
          }
        } else {
          // A large config's first search builds its index in slices.
          const index =
            current.builtSearchIndex ??
            (await current.searchIndexInSlices(this.#slices));
          this.#candidates.note(named, index);
          this.#configs.offer(current);
          for (const position of candidates(index, criteria)) {
            const entry = index.links[position];
            if (entry === undefined) continue;
            // The links of one large config are tested in slices too.
            if (++linksScanned % LINKS_PER_PAUSE === 0) {
              const paused = pauseIfDue();
              if (paused !== undefined) await paused;
            }
            if (matches(index, position, criteria) && take(name, entry)) break;
          }
        }
      } finally {
        release?.();
      }
      if (results.length >= input.limit) {
        // The configs after this one were not searched.
        if (visit !== undefined) configsSearched -= catalog.length - at - 1;
        break;
      }
    }
    const value = { results, configsSearched, linksScanned };
    return { value, text: () => searchAnswerText(value, entries) };
  }
}

/**
 * Link positions worth testing, in catalog order, narrowed by the indexes where possible: the tag map for
 * `tag`; for `q`, the links whose trigram signatures allow the text and whose selected fields hold it; for
 * the literals every match of `regex` must contain, the links whose signatures allow one list of them
 * (`regex-links.ts`: each field is then looked at once). Every candidate is still tested in full by
 * {@link matches}, but for the tag (each link of its list carries it: `matches` does not test it again) and
 * for a haystack-safe `q` without a tag (the candidates {@link holding} chose hold it already); `matches`
 * relies on these choices being made here under the same conditions.
 */
function candidates(
  index: ConfigSearchIndex,
  criteria: Criteria,
): Iterable<number> {
  if (criteria.tag !== undefined) return index.tags.get(criteria.tag) ?? [];
  const q = criteria.q;
  if (q !== undefined && haystackSafe(q)) return holding(index, [q], criteria);
  const literals = criteria.regex?.literals ?? null;
  const some = literals === null ? null : regexCandidates(index, literals);
  return some ?? allPositions(index.links.length);
}

/** The terms the summaries across configs can tell (texts they cannot hold left out). */
function terms(criteria: Criteria): SummaryTerms {
  const { q } = criteria;
  return {
    tag: criteria.tag,
    q: q !== undefined && haystackSafe(q) ? q : undefined,
    literals: criteria.regex?.literals ?? null,
  };
}

function* allPositions(count: number): Generator<number> {
  for (let i = 0; i < count; i++) yield i;
}

/**
 * The links holding every one of `texts` (folded) in a selected field, in catalog order (lazily: a search
 * stops at its limit).
 */
function* holding(
  index: ConfigSearchIndex,
  texts: readonly string[],
  criteria: Criteria,
): Generator<number> {
  const { fields } = criteria;
  next: for (const link of candidateLinks(index, texts) ??
    allPositions(index.links.length)) {
    for (const text of texts) {
      if (!linkContains(index, link, { text, fields })) continue next;
    }
    yield link;
  }
}

function matches(
  index: ConfigSearchIndex,
  position: number,
  criteria: Criteria,
): boolean {
  const entry = index.links[position];
  if (entry === undefined) return false;
  // A tag chose the candidates ({@link candidates}: its list in the tag map): each already carries it.
  const { q, regex } = criteria;
  // A haystack-safe `q` without a tag chose the candidates ({@link holding}): each already holds it.
  if (
    q !== undefined &&
    (haystackSafe(q)
      ? criteria.tag !== undefined &&
        !linkContains(index, position, { text: q, fields: criteria.fields })
      : !someField(entry, criteria, (t) => foldCase(t).includes(q)))
  ) {
    return false;
  }
  if (regex !== undefined && !regexMatches(index, position, regex)) {
    return false;
  }
  return true;
}

function someField(
  entry: IndexedLink,
  criteria: Criteria,
  test: (text: string) => boolean,
): boolean {
  for (const field of criteria.fields) {
    if (someFieldText(entry, field, test)) return true;
  }
  return false;
}
