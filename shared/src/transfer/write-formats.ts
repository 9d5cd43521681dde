/**
 * Links out: a config as JSON (ready for a site), as a Netscape bookmark file (tags as `TAGS` and as
 * folders, ids as `ID`, line breaks of descriptions as `<BR>`) that browsers and bookmark managers
 * import, and as CSV with the columns the CSV reader reads. What a format leaves out is said by
 * `exportLosses` (export-losses.ts). Each writer's output reads back to the same links (tests: `transfer.round-trip.test.ts`).
 */
import Papa from 'papaparse';
import type { LinkConfig } from '../schemas/index.js';
import { isPlainObject } from '../util/is-plain-object.js';

/** The links of a config that have a URL, as `[id, link]` in stored order. */
function linksOf(config: LinkConfig): [string, Record<string, unknown>][] {
  const all: unknown = config.allLinks;
  if (!isPlainObject(all)) return [];
  return Object.entries(all).filter(
    (entry): entry is [string, Record<string, unknown>] =>
      isPlainObject(entry[1]) && typeof entry[1]['url'] === 'string',
  );
}

const text = (value: unknown): string =>
  typeof value === 'string' ? value : '';
const tagsOf = (link: Record<string, unknown>): string[] =>
  Array.isArray(link['tags'])
    ? link['tags'].filter((tag): tag is string => typeof tag === 'string')
    : [];

/** The config as indented JSON text, as the service stores and serves it. */
export function writeJson(config: LinkConfig): string {
  return `${JSON.stringify(config, null, 2)}\n`;
}

/**
 * CSV with a header row: id, url, label, tags (comma-separated), description. A cell that starts with
 * `=`, `+`, `-`, `@`, a tab or a carriage return gets a `'` in front, so a spreadsheet shows it as text
 * instead of running it as a formula; the CSV reader takes the `'` off again.
 */
export function writeCsv(config: LinkConfig): string {
  const rows = linksOf(config).map(([id, link]) => [
    id,
    text(link['url']),
    text(link['label']),
    tagsOf(link).join(','),
    text(link['description']),
  ]);
  return `${Papa.unparse({ fields: ['id', 'url', 'label', 'tags', 'description'], data: rows }, { newline: '\n', escapeFormulae: true })}\n`;
}

const escapeHtml = (value: string): string =>
  value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');

/** A time kept in `meta` as the attribute it came from. */
function timeAttribute(name: string, value: unknown): string {
  return typeof value === 'number' ||
    (typeof value === 'string' && value !== '')
    ? ` ${name}="${escapeHtml(String(value))}"`
    : '';
}

/** Options of {@link writeBookmarksHtml}. */
export interface BookmarksHtmlOptions {
  /** The file's title (default "Bookmarks"). */
  readonly title?: string;
  /**
   * Which tags become folders: a link goes into the folder of the first such tag it has (the tag stays
   * in `TAGS` too, and an import reads the folder back as that tag); links with none stay at the top.
   * Default: every tag, so each tagged link sits in the folder of its first tag; `[]`: no folders.
   */
  readonly folderTags?: readonly string[];
}

/** The links of a bookmark file: by folder (in the order folders first appear), then those at the top. */
export function bookmarkGroups(
  config: LinkConfig,
  options: BookmarksHtmlOptions = {},
): {
  readonly folders: ReadonlyMap<string, [string, Record<string, unknown>][]>;
  readonly top: [string, Record<string, unknown>][];
} {
  const chosen = options.folderTags;
  const top: [string, Record<string, unknown>][] = [];
  const folders = new Map<string, [string, Record<string, unknown>][]>(
    (chosen ?? []).map((tag) => [tag, []]),
  );
  for (const entry of linksOf(config)) {
    const tags = tagsOf(entry[1]);
    const folder =
      chosen === undefined ? tags[0] : chosen.find((tag) => tags.includes(tag));
    if (folder === undefined) top.push(entry);
    else folders.set(folder, [...(folders.get(folder) ?? []), entry]);
  }
  return { folders, top };
}

/** One link as a bookmark: `<DT><A …>label</A>`, and its description as `<DD>`. */
function bookmark(id: string, link: Record<string, unknown>): string {
  const tags = tagsOf(link);
  const meta = isPlainObject(link['meta']) ? link['meta'] : {};
  const label = text(link['label']) || text(link['url']);
  const attributes =
    `HREF="${escapeHtml(text(link['url']))}"` +
    // The id, which an import keeps (browsers ignore attributes they do not know).
    ` ID="${escapeHtml(id)}"` +
    timeAttribute('ADD_DATE', meta['addDate']) +
    timeAttribute('LAST_MODIFIED', meta['lastModified']) +
    (tags.length > 0 ? ` TAGS="${escapeHtml(tags.join(','))}"` : '');
  const description = text(link['description']);
  return (
    `<DT><A ${attributes}>${escapeHtml(label)}</A>` +
    (description === ''
      ? ''
      : `\n<DD>${escapeHtml(description).replace(/\r?\n/g, '<BR>')}`)
  );
}

/** A Netscape bookmark file of the config's links. */
export function writeBookmarksHtml(
  config: LinkConfig,
  options: BookmarksHtmlOptions = {},
): string {
  const title = escapeHtml(options.title ?? 'Bookmarks');
  const groups = bookmarkGroups(config, options);
  const items = (entries: [string, Record<string, unknown>][]): string[] =>
    entries.map(([id, link]) => bookmark(id, link));
  const top = items(groups.top);
  const folders = new Map(
    [...groups.folders].map(([tag, entries]) => [tag, items(entries)]),
  );
  const indent = (lines: string[], depth: number): string =>
    lines.map((line) => line.replace(/^/gm, '    '.repeat(depth))).join('\n');
  const folderBlocks = [...folders]
    .filter(([, items]) => items.length > 0)
    .map(
      ([tag, items]) =>
        `    <DT><H3>${escapeHtml(tag)}</H3>\n    <DL><p>\n${indent(items, 2)}\n    </DL><p>`,
    );
  const body = [...folderBlocks, ...(top.length > 0 ? [indent(top, 1)] : [])];
  return [
    '<!DOCTYPE NETSCAPE-Bookmark-file-1>',
    '<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">',
    `<TITLE>${title}</TITLE>`,
    `<H1>${title}</H1>`,
    '<DL><p>',
    ...body,
    '</DL><p>',
    '',
  ].join('\n');
}
