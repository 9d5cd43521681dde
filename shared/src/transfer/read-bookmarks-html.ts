/**
 * Reads the Netscape bookmark file that browsers (Firefox, Chrome, Safari, Edge) and bookmark managers
 * (Pinboard, linkding, Raindrop, Linkwarden) export: `<DT><H3>` opens a folder whose links follow in the
 * next `<DL>`, `<DT><A HREF …>` is a link (`TAGS="a,b"` its tags, `ADD_DATE` its time in seconds), and a
 * `<DD>` after it its description. The file is tokenized by htmlparser2, which closes what the format
 * leaves open (`<DT>`, `<DD>`, `<p>`) and tolerates what a broken file leaves unclosed.
 */
import { Parser } from 'htmlparser2';
import type {
  ImportCandidate,
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

/** Folder attributes that mark a browser's own root folders, which are not made into tags. */
const ROOT_FOLDER_ATTRIBUTES = [
  'personal_toolbar_folder',
  'unfiled_bookmarks_folder',
];

/** A time attribute kept in `meta`: whole seconds as a number, anything else as the text it was. */
function timeValue(value: string | undefined): number | string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  return /^\d{1,15}$/.test(value.trim()) ? Number(value.trim()) : value;
}

const collapse = (text: string): string => text.replace(/\s+/g, ' ').trim();

/**
 * Reads bookmark HTML. Only a file nested more than {@link MAX_OPEN_ELEMENTS} deep fails as a whole; a
 * file with no links gives no candidates.
 */
export function readBookmarksHtml(text: string): ReadImportResult {
  const positionAt = sourceLines(text);
  const candidates: ImportCandidate[] = [];
  const skipped: SkippedLink[] = [];
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
        if (name !== 'dd') endDescription();
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
            const added = timeValue(attributes['add_date']);
            if (added !== undefined) meta['addDate'] = added;
            const modified = timeValue(attributes['last_modified']);
            if (modified !== undefined) meta['lastModified'] = modified;
            const candidate: ImportCandidate = {
              url: href,
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
      ontext(chunk) {
        if (anchor !== null) anchor.text += chunk;
        else if (heading !== null) heading.text += chunk;
        else if (description !== null) description.text += chunk;
      },
      onclosetag(name) {
        open--;
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
  return { ok: true, parsed: { format: 'html', candidates, skipped } };
}
