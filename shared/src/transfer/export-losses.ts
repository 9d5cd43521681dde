/**
 * What an export in a format leaves out of a config, said before the file is written: the command line
 * prints it, the page's export dialog shows it. JSON carries everything; bookmark HTML and CSV carry a
 * link's id, URL, label, tags and description (HTML also its two times), never the config's other
 * sections or a link's other fields. Ids an expression cannot name come back renamed from an import.
 */
import type { LinkConfig, TransferFormat } from '../schemas/index.js';
import { isPlainObject } from '../util/is-plain-object.js';
import { isUsableId } from '../links/ids.js';
import { bookmarkGroups } from './write-formats.js';
import type { BookmarksHtmlOptions } from './write-formats.js';

/** The link fields bookmark HTML and CSV write (HTML also `meta.addDate` and `meta.lastModified`). */
const CARRIED = new Set(['url', 'label', 'tags', 'description']);
const HTML_TIMES = new Set(['addDate', 'lastModified']);

const plural = (n: number, one: string, many = `${one}s`): string =>
  `${n} ${n === 1 ? one : many}`;

/** A few of `items`, then how many more. */
const some = (items: readonly string[]): string =>
  items.length <= 5
    ? items.join(', ')
    : `${items.slice(0, 5).join(', ')} and ${items.length - 5} more`;

/** Whether bookmark folders put the links in another order than the config's. */
function reordered(config: LinkConfig, options: BookmarksHtmlOptions): boolean {
  const { folders, top } = bookmarkGroups(config, options);
  const written = [...[...folders.values()].flat(), ...top].map(([id]) => id);
  return written.some((id, i) => id !== Object.keys(config.allLinks)[i]);
}

/**
 * What an export of `config` as `format` does not carry, one sentence each; `[]` when it carries all.
 * `html` takes the writer's options (its folders decide the order of links).
 */
export function exportLosses(
  config: LinkConfig,
  format: TransferFormat,
  html: BookmarksHtmlOptions = {},
): string[] {
  if (format === 'json') return [];
  const losses: string[] = [];
  const sections = Object.keys(config).filter((key) => key !== 'allLinks');
  if (sections.length > 0) {
    losses.push(
      `the config's ${some(sections)} (${format === 'html' ? 'bookmarks' : 'CSV'} holds links only; JSON keeps them)`,
    );
  }
  const links: unknown = config.allLinks;
  const entries = isPlainObject(links) ? Object.entries(links) : [];
  const fields = new Map<string, number>();
  const noUrl: string[] = [];
  const unnamed: string[] = [];
  for (const [id, link] of entries) {
    if (!isPlainObject(link) || typeof link['url'] !== 'string') {
      noUrl.push(id);
      continue;
    }
    if (!isUsableId(id)) unnamed.push(id);
    for (const [field, value] of Object.entries(link)) {
      if (CARRIED.has(field)) continue;
      const names =
        field === 'meta' && isPlainObject(value)
          ? Object.keys(value)
              .filter((key) => format !== 'html' || !HTML_TIMES.has(key))
              .map((key) => `meta.${key}`)
          : [field];
      for (const name of names) fields.set(name, (fields.get(name) ?? 0) + 1);
    }
  }
  if (fields.size > 0) {
    losses.push(
      `link fields: ${[...fields].map(([field, n]) => `${field} (${plural(n, 'link')})`).join(', ')}`,
    );
  }
  if (noUrl.length > 0) {
    losses.push(
      `${plural(noUrl.length, 'link')} without a URL: ${some(noUrl)}`,
    );
  }
  if (unnamed.length > 0) {
    losses.push(
      `${plural(unnamed.length, 'id')} an expression cannot name (${some(unnamed)}): the file has ${unnamed.length === 1 ? 'it' : 'them'}, but an import gives ${unnamed.length === 1 ? 'it a new one' : 'them new ones'}`,
    );
  }
  if (format === 'html' && reordered(config, html)) {
    losses.push(
      'the order of links: the file groups them into folders by tag (an import reads them in that order)',
    );
  }
  return losses;
}
