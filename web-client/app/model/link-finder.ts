/**
 * Finding links in a config, as pure functions: a filter over label, URL, id, description and tags
 * (every word typed must occur somewhere, case ignored), tags to narrow by (a link must have all of
 * them), the tags of what is left with their counts, and the order to show them in.
 *
 * The text each link is searched in is built once per version of the links (kept by the identity of
 * the `allLinks` object, which every edit replaces), so a keystroke only scans prepared strings.
 */
import type { Link } from '@linkconfig/shared';

/**
 * How the links are ordered: as in the config, by label, by id, most recently changed first, or (the
 * table's columns) by URL or by tags. Ordering only ever changes the view, never the stored order.
 */
export type LinkSort = 'config' | 'label' | 'id' | 'recent' | 'url' | 'tags';

/** What to find. */
export interface FindOptions {
  /** Words to look for; empty finds every link. */
  text: string;
  /** Tags a link must all have (tags are case-sensitive, as in expressions). */
  tags: readonly string[];
  sort: LinkSort;
  /** The order turned around (a table column pressed twice). */
  descending?: boolean;
  /** When this page last changed each link (ms); links changed here sort first under `recent`. */
  touched: Readonly<Record<string, number>>;
  /** Only links this says yes to (a health facet); all when absent. */
  keep?: (id: string, link: Link) => boolean;
}

/** A tag of the links found, with how many of them have it. */
export interface TagCount {
  tag: string;
  count: number;
}

/** What {@link findLinks} answers. */
export interface Found {
  /** The ids found, in the order asked for. */
  ids: string[];
  /** How many links the config has. */
  total: number;
  /** The tags of the links found, most frequent first (then by name). */
  facets: TagCount[];
}

/** One link prepared for finding. */
interface Entry {
  id: string;
  link: Link;
  /** Its place in the config. */
  index: number;
  /** Label, URL, id, description and tags in lower case, one per line. */
  text: string;
  tags: readonly string[];
}

const prepared = new WeakMap<object, Entry[]>();

/** The links prepared for finding (built once per `allLinks` object). */
function entriesOf(links: Readonly<Record<string, Link>>): Entry[] {
  const known = prepared.get(links);
  if (known) return known;
  const entries = Object.entries(links).map(([id, link], index) => {
    const tags = Array.isArray(link.tags) ? link.tags : [];
    const text = [
      link.label ?? '',
      link.url,
      id,
      typeof link.description === 'string' ? link.description : '',
      tags.join(' '),
    ]
      .join('\n')
      .toLowerCase();
    return { id, link, index, text, tags };
  });
  prepared.set(links, entries);
  return entries;
}

/** The links of `links` that match `options`, in the order asked for, with the tag counts. */
export function findLinks(
  links: Readonly<Record<string, Link>>,
  options: FindOptions,
): Found {
  const entries = entriesOf(links);
  const words = options.text.toLowerCase().split(/\s+/).filter(Boolean);
  const keep = options.keep;
  const found = entries.filter(
    (entry) =>
      (keep === undefined || keep(entry.id, entry.link)) &&
      words.every((word) => entry.text.includes(word)) &&
      options.tags.every((tag) => entry.tags.includes(tag)),
  );
  const counts = new Map<string, number>();
  for (const entry of found)
    for (const tag of new Set(entry.tags))
      counts.set(tag, (counts.get(tag) ?? 0) + 1);
  const facets = [...counts]
    .map(([tag, count]) => ({ tag, count }))
    .sort((a, b) => b.count - a.count || compareText(a.tag, b.tag));
  return {
    ids: (options.descending === true
      ? sortEntries(found, options).reverse()
      : sortEntries(found, options)
    ).map((entry) => entry.id),
    total: entries.length,
    facets,
  };
}

const tagLists = new WeakMap<object, string[]>();

/** Every tag the links use, sorted (for autocompletion and "did you mean"); once per `allLinks`. */
export function allTags(links: Readonly<Record<string, Link>>): string[] {
  const known = tagLists.get(links);
  if (known) return known;
  const tags = new Set<string>();
  for (const entry of entriesOf(links))
    for (const tag of entry.tags) tags.add(tag);
  const sorted = [...tags].sort(compareText);
  tagLists.set(links, sorted);
  return sorted;
}

function sortEntries(entries: Entry[], options: FindOptions): Entry[] {
  const sorted = [...entries];
  switch (options.sort) {
    case 'config':
      return sorted;
    case 'id':
      return sorted.sort((a, b) => compareText(a.id, b.id));
    case 'label':
      return sorted.sort(
        (a, b) =>
          compareText(a.link.label ?? a.id, b.link.label ?? b.id) ||
          compareText(a.id, b.id),
      );
    case 'url':
      return sorted.sort(
        (a, b) =>
          compareText(a.link.url, b.link.url) || compareText(a.id, b.id),
      );
    case 'tags':
      // Links without tags last; then by their tags as written.
      return sorted.sort(
        (a, b) =>
          Number(a.tags.length === 0) - Number(b.tags.length === 0) ||
          compareText(a.tags.join(' '), b.tags.join(' ')) ||
          compareText(a.id, b.id),
      );
    case 'recent': {
      const touched = options.touched;
      return sorted.sort(
        (a, b) =>
          (touched[b.id] ?? 0) - (touched[a.id] ?? 0) ||
          createdAt(b.link) - createdAt(a.link) ||
          // Links added later stand later in the config.
          b.index - a.index,
      );
    }
  }
}

/** A link's `createdAt` in ms (a number, or a date the browser can read), 0 when unknown. */
function createdAt(link: Link): number {
  const value = link.createdAt;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string') {
    const time = Date.parse(value);
    if (Number.isFinite(time)) return time;
  }
  return 0;
}

const collator = new Intl.Collator(undefined, {
  sensitivity: 'base',
  numeric: true,
});

function compareText(a: string, b: string): number {
  return collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}
