/**
 * Reads the Netscape bookmark file that browsers (Firefox, Chrome, Safari, Edge) and bookmark managers
 * (Pinboard, linkding, Raindrop, Linkwarden) export: `<DT><H3>` opens a folder whose links follow in the
 * next `<DL>`, `<DT><A HREF …>` is a link (`TAGS="a,b"` its tags, `ADD_DATE` its time in seconds), and a
 * `<DD>` after it its description: its text, markup inside reduced to text (`<BR>` a line break), what
 * scripts, styles and frames hold left out, up to the next item. The file is tokenized by htmlparser2, which closes what the format
 * leaves open (`<DT>`, `<DD>`, `<p>`) and tolerates what a broken file leaves unclosed.
 */
import { Parser } from 'htmlparser2';
import type {
  ImportCandidate,
  ImportNote,
  ReadImportResult,
  SkippedLink,
} from '../schemas/index.js';
import { sourceLines } from './source-lines.js';

/**
 * The most folders a link keeps, outermost first. A link in a deeper folder is read as if it sat in the
 * deepest kept one: no link is lost, and each link's folders (and the work per link) stay bounded
 * however deeply a file nests its lists. Real exports nest a handful of levels.
 */
export const MAX_FOLDER_DEPTH = 32;

/**
 * The most elements open at once (a folder level opens three: `<DT>`, `<DL>`, `<p>`). The tokenizer's
 * work per tag grows with how many are open, so a file nested deeper than this, far beyond any export
 * and beyond the folders kept, is refused rather than read in time that grows with the square of its depth.
 */
export const MAX_OPEN_ELEMENTS = 1024;

/** Thrown out of the tokenizer's callbacks to stop reading a file nested too deeply. */
class TooDeep extends Error {}

/** The time attributes read: attribute (lower-cased), `meta` field, and the attribute as written. */
const TIME_ATTRIBUTES = [
  ['add_date', 'addDate', 'ADD_DATE'],
  ['last_modified', 'lastModified', 'LAST_MODIFIED'],
] as const;

/** Folder attributes that mark a browser's own root folders, which are not made into tags. */
const ROOT_FOLDER_ATTRIBUTES = [
  'personal_toolbar_folder',
  'unfiled_bookmarks_folder',
];

/** The most seconds from 1970 a date can be, either way (what a JavaScript `Date` holds). */
const MAX_TIME_SECONDS = 8.64e12;

/**
 * A time attribute (`ADD_DATE`, `LAST_MODIFIED`): whole seconds since 1970 become a number in `meta`;
 * anything else (not a whole number, or beyond any date) is left out, and the reason is a note.
 */
function timeValue(
  name: string,
  value: string | undefined,
): { readonly seconds: number } | { readonly note: string } | undefined {
  const text = value?.trim() ?? '';
  if (text === '') return undefined;
  const seconds = /^-?\d{1,20}$/.test(text) ? Number(text) : Number.NaN;
  if (Number.isSafeInteger(seconds) && Math.abs(seconds) <= MAX_TIME_SECONDS)
    return { seconds };
  return {
    note: `${name}="${text.length > 40 ? `${text.slice(0, 37)}...` : text}" is not a time in seconds that a date can hold; it was not kept`,
  };
}

/**
 * Elements whose content is no text of a description or label: scripts, styles and embedded
 * documents. What they hold is left out; the text around them is kept.
 */
const NO_TEXT = new Set([
  'script',
  'style',
  'iframe',
  'noscript',
  'noembed',
  'noframes',
  'object',
  'template',
  'textarea',
  'title',
]);

/** Elements that end a description: the next item or list of the file. */
const ENDS_DESCRIPTION = new Set(['dt', 'dd', 'dl', 'h3', 'a', 'hr']);

/** Where a `<BR>` broke a description: kept as a line break when whitespace is collapsed. */
const BREAK = '\u0000';

/** Runs of whitespace as one space, trimmed; line by line where `<BR>` broke the text. */
const collapse = (text: string): string =>
  text
    .split(BREAK)
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .join('\n')
    .trim();

/**
 * Reads bookmark HTML. Only a file nested more than {@link MAX_OPEN_ELEMENTS} deep fails as a whole; a
 * file with no links gives no candidates.
 */
export function readBookmarksHtml(text: string): ReadImportResult {
  const positionAt = sourceLines(text);
  const candidates: ImportCandidate[] = [];
  const skipped: SkippedLink[] = [];
  const notes: ImportNote[] = [];
  /** Open elements whose content is no text ({@link NO_TEXT}). */
  let hidden = 0;
  /**
   * Per open `<DL>`: whether it added a name to `named` (a list that no folder heading named, or one
   * deeper than {@link MAX_FOLDER_DEPTH}, adds none).
   */
  const lists: boolean[] = [];
  /** The folders around the current position, outermost first, at most {@link MAX_FOLDER_DEPTH}. */
  const named: string[] = [];
  /** Elements open now: every open tag the tokenizer reports is closed by it too, implied or not. */
  let open = 0;
  let heading: { text: string; root: boolean } | null = null;
  let pendingFolder: string | null = null;
  /** What the last `<DT>` held: a `<DD>` describes a link, never a folder. */
  let lastItem: 'link' | 'folder' | null = null;
  let anchor: { candidate: ImportCandidate; text: string } | null = null;
  let description: { candidate: ImportCandidate; text: string } | null = null;

  const folders = (): string[] => named.slice();
  const endDescription = (): void => {
    if (description === null) return;
    const value = collapse(description.text);
    if (value !== '') description.candidate.description = value;
    description = null;
  };
  /** Ends a folder heading; a broken file may leave `<H3>` open until its list starts. */
  const endHeading = (): void => {
    if (heading === null) return;
    const title = collapse(heading.text);
    pendingFolder = heading.root || title === '' ? null : title;
    heading = null;
  };
  const endAnchor = (): void => {
    if (anchor === null) return;
    const label = collapse(anchor.text);
    if (label !== '') anchor.candidate.label = label;
    anchor = null;
  };

  const parser = new Parser(
    {
      onopentag(name, attributes) {
        const at = positionAt(parser.startIndex);
        if (++open > MAX_OPEN_ELEMENTS) {
          throw new TooDeep(
            `line ${at.line}: the file nests more than ${MAX_OPEN_ELEMENTS} elements inside each other (a bookmark export opens three per folder); it is not read`,
          );
        }
        if (NO_TEXT.has(name)) hidden++;
        if (ENDS_DESCRIPTION.has(name)) endDescription();
        else if (name === 'br' && description !== null) {
          description.text += BREAK;
        }
        switch (name) {
          case 'h3': {
            endAnchor();
            const root = ROOT_FOLDER_ATTRIBUTES.some(
              (key) => attributes[key]?.toLowerCase() === 'true',
            );
            heading = { text: '', root };
            pendingFolder = null;
            lastItem = 'folder';
            return;
          }
          case 'dl': {
            endHeading();
            const folder: string | null = pendingFolder;
            const adds = folder !== null && named.length < MAX_FOLDER_DEPTH;
            if (adds) named.push(folder);
            lists.push(adds);
            pendingFolder = null;
            return;
          }
          case 'a': {
            endAnchor();
            endHeading();
            const href = attributes['href'];
            if (href === undefined) {
              lastItem = null;
              skipped.push({ position: at, reason: 'a link without HREF' });
              return;
            }
            const meta: Record<string, unknown> = {};
            for (const [attribute, field, written] of TIME_ATTRIBUTES) {
              const time = timeValue(written, attributes[attribute]);
              if (time === undefined) continue;
              if ('seconds' in time) meta[field] = time.seconds;
              else notes.push({ position: at, url: href, note: time.note });
            }
            // An id written by an export (browsers' own `ID`s, such as `rdf:#$…`, are no usable id).
            const id = attributes['id']?.trim() ?? '';
            const candidate: ImportCandidate = {
              url: href,
              ...(id === '' ? {} : { id }),
              tags: (attributes['tags'] ?? '')
                .split(',')
                .map((tag) => tag.trim())
                .filter((tag) => tag !== ''),
              folders: folders(),
              position: at,
              ...(Object.keys(meta).length > 0 ? { meta } : {}),
            };
            candidates.push(candidate);
            lastItem = 'link';
            anchor = { candidate, text: '' };
            return;
          }
          case 'dd': {
            endAnchor();
            const last = candidates.at(-1);
            if (last !== undefined && lastItem === 'link') {
              description = { candidate: last, text: '' };
            }
            lastItem = null;
            return;
          }
          default:
            return;
        }
      },
      ontext(raw) {
        if (hidden > 0) return;
        const chunk = raw.replaceAll(BREAK, '');
        if (anchor !== null) anchor.text += chunk;
        else if (heading !== null) heading.text += chunk;
        else if (description !== null) description.text += chunk;
      },
      onclosetag(name) {
        open--;
        if (NO_TEXT.has(name)) hidden = Math.max(0, hidden - 1);
        if (name === 'a') endAnchor();
        else if (name === 'h3') endHeading();
        else if (name === 'dl') {
          endDescription();
          if (lists.pop() === true) named.pop();
        }
      },
    },
    {
      decodeEntities: true,
      lowerCaseTags: true,
      lowerCaseAttributeNames: true,
    },
  );
  try {
    parser.write(text);
    parser.end();
  } catch (error) {
    if (error instanceof TooDeep) return { ok: false, error: error.message };
    throw error;
  }
  endAnchor();
  endDescription();
  return {
    ok: true,
    parsed: {
      format: 'html',
      candidates,
      skipped,
      ...(notes.length > 0 ? { notes } : {}),
    },
  };
}
