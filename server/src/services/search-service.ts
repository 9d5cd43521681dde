import { RE2JS } from 're2js';
import { slicePauser } from '@linkconfig/shared';
import type {
  SearchField,
  SearchInput,
  SearchOutput,
  SliceOptions,
} from '@linkconfig/shared';
import { DomainError } from '../errors.js';
import { EVENT_LOOP_SLICES } from '../event-loop.js';
import type { ConfigService, Readable, StateRead } from './config-service.js';
import { foldCase } from '../versions/fold-case.js';
import { requiredLiterals } from './regex-literals.js';
import type { RequiredLiterals } from './regex-literals.js';
import {
  candidateLinks,
  haystackSafe,
  linkContains,
} from '../versions/search-index.js';
import type {
  ConfigSearchIndex,
  IndexedLink,
} from '../versions/search-index.js';

/** Links tested between two looks at the clock (a pause when a slice has run its time). */
const LINKS_PER_PAUSE = 256;

/** A compiled `/search` request. */
interface Criteria {
  readonly tag: string | undefined;
  /** `q`, case-folded. */
  readonly q: string | undefined;
  readonly regex: RE2JS | undefined;
  /** Literals every match of `regex` contains (per alternative, folded), when they can be told. */
  readonly regexLiterals: RequiredLiterals;
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

  /** `slices`: how a search over many configs shares the event loop (between two configs). */
  constructor(
    configs: ConfigService,
    slices: SliceOptions = EVENT_LOOP_SLICES,
  ) {
    this.#configs = configs;
    this.#slices = slices;
  }

  /** Runs one search; the answer depends only on the stored configs. */
  async search(
    input: SearchInput,
    state?: StateRead,
    readable?: Readable,
  ): Promise<SearchOutput> {
    const criteria: Criteria = {
      tag: input.tag,
      q: input.q === undefined ? undefined : foldCase(input.q),
      regex:
        input.regex === undefined ? undefined : compile(input.regex, 'regex'),
      regexLiterals:
        input.regex === undefined ? null : requiredLiterals(input.regex),
      fields: new Set(input.fields),
    };
    const configFilter =
      input.config === undefined ? undefined : compile(input.config, 'config');
    const results: SearchOutput['results'] = [];
    let configsSearched = 0;
    let linksScanned = 0;
    // A search that reads many configs lets other requests in between two of them, every slice.
    const pauseIfDue = slicePauser(this.#slices);
    for (const { name, version } of await this.#configs.versions(
      state,
      readable,
    )) {
      if (results.length >= input.limit) break;
      const paused = pauseIfDue();
      if (paused !== undefined) await paused;
      if (configFilter !== undefined && !configFilter.test(name)) {
        continue;
      }
      // A cached version without a promise per config; one not cached is read and then offered.
      const cached = this.#configs.cachedAt(name, version);
      const current =
        cached === undefined ? await this.#configs.readVersion(name) : cached;
      if (current === null) continue;
      configsSearched++;
      // A large config's first search builds its index in slices.
      const index =
        current.builtSearchIndex ??
        (await current.searchIndexInSlices(this.#slices));
      this.#configs.offer(current);
      for (const position of candidates(index, criteria)) {
        const entry = index.links[position];
        if (entry === undefined) continue;
        // The links of one large config are tested in slices too.
        if (++linksScanned % LINKS_PER_PAUSE === 0) {
          const paused = pauseIfDue();
          if (paused !== undefined) await paused;
        }
        if (!matches(index, position, criteria)) continue;
        results.push({
          configName: name,
          id: entry.id,
          link: entry.link as SearchOutput['results'][number]['link'],
        });
        if (results.length >= input.limit) break;
      }
    }
    return { results, configsSearched, linksScanned };
  }
}

function compile(pattern: string, what: 'regex' | 'config'): RE2JS {
  try {
    return RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new DomainError(
      'invalid_pattern',
      `${what} is not a valid regular expression: ${reason}`,
    );
  }
}

/**
 * Link positions worth testing, in catalog order, narrowed by the indexes where possible: the tag map for
 * `tag`; for `q`, or for the literals every match of `regex` must contain, the links whose trigram
 * signatures allow the text and whose selected fields hold it. Every candidate is still tested in full by
 * {@link matches}.
 */
function candidates(
  index: ConfigSearchIndex,
  criteria: Criteria,
): Iterable<number> {
  if (criteria.tag !== undefined) return index.tags.get(criteria.tag) ?? [];
  const q = criteria.q;
  if (q !== undefined && haystackSafe(q)) return holding(index, [q], criteria);
  const literals = criteria.regexLiterals;
  if (literals !== null && literals.every((all) => all.every(haystackSafe))) {
    const [only] = literals;
    if (literals.length === 1 && only !== undefined) {
      return holding(index, only, criteria);
    }
    const hits = new Set<number>();
    for (const all of literals) {
      for (const position of holding(index, all, criteria)) hits.add(position);
    }
    return [...hits].sort((a, b) => a - b);
  }
  return allPositions(index.links.length);
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
  for (const link of candidateLinks(index, texts) ??
    allPositions(index.links.length)) {
    if (texts.every((text) => linkContains(index, link, { text, fields }))) {
      yield link;
    }
  }
}

function fieldTexts(entry: IndexedLink, field: SearchField): readonly string[] {
  switch (field) {
    case 'id':
      return [entry.id];
    case 'label':
      return entry.label === undefined ? [] : [entry.label];
    case 'url':
      return [entry.url];
    case 'tags':
      return entry.tags;
    case 'description':
      return entry.description === undefined ? [] : [entry.description];
  }
}

function matches(
  index: ConfigSearchIndex,
  position: number,
  criteria: Criteria,
): boolean {
  const entry = index.links[position];
  if (entry === undefined) return false;
  if (criteria.tag !== undefined && !entry.tags.includes(criteria.tag)) {
    return false;
  }
  const { q, regex } = criteria;
  if (
    q !== undefined &&
    (haystackSafe(q)
      ? !linkContains(index, position, { text: q, fields: criteria.fields })
      : !someField(entry, criteria, (t) => foldCase(t).includes(q)))
  ) {
    return false;
  }
  if (
    regex !== undefined &&
    !someField(entry, criteria, (t) => regex.test(t))
  ) {
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
    for (const text of fieldTexts(entry, field)) if (test(text)) return true;
  }
  return false;
}
