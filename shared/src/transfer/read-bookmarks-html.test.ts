import { describe, expect, it } from 'vitest';
import type { ParsedImport } from '../schemas/index.js';
import {
  MAX_FOLDER_DEPTH,
  MAX_OPEN_ELEMENTS,
  readBookmarksHtml,
} from './read-bookmarks-html.js';
import { readImport } from './read-import.js';

const HEAD = '<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n';

/** `depth` folders each inside the one before; `link(level)` may put a link in each (level 1 outermost). */
function nested(depth: number, link: (level: number) => string): string {
  const parts = [HEAD];
  for (let level = 1; level <= depth; level++) {
    parts.push(`<DT><H3>f${level}</H3>\n<DL><p>\n${link(level)}`);
  }
  parts.push('</DL><p>\n'.repeat(depth));
  parts.push('<DT><A HREF="https://after.example/">after</A>\n</DL><p>\n');
  return parts.join('');
}

const anchor = (label: string): string =>
  `<DT><A HREF="https://${label}.example/">${label}</A>\n`;

function read(text: string): ParsedImport {
  const result = readBookmarksHtml(text);
  if (!result.ok) throw new Error(result.error);
  return result.parsed;
}

/** The folders of a deep file's links, in level order, when the deepest folders a file may hold are used. */
const DEEPEST = Math.floor((MAX_OPEN_ELEMENTS - 3) / 3);

describe('bookmark HTML folder depth', () => {
  it(`reads a link below the deepest kept folder (${MAX_FOLDER_DEPTH}) as in that folder: no link is lost`, () => {
    const { candidates } = read(
      nested(DEEPEST, (level) =>
        level === 10 || level === DEEPEST ? anchor(`at${level}`) : '',
      ),
    );
    expect(candidates.map((c) => [c.label, c.folders.length])).toEqual([
      ['at10', 10],
      [`at${DEEPEST}`, MAX_FOLDER_DEPTH],
      ['after', 0],
    ]);
    expect(candidates[1]?.folders).toEqual(
      Array.from({ length: MAX_FOLDER_DEPTH }, (_, i) => `f${i + 1}`),
    );
  });

  it('keeps the folders of each link bounded when every level of a deep file holds a link', () => {
    const { candidates } = read(
      nested(DEEPEST, (level) => anchor(`l${level}`)),
    );
    expect(candidates).toHaveLength(DEEPEST + 1);
    const lengths = candidates.map((c) => c.folders.length);
    expect(lengths).toEqual([
      ...Array.from({ length: MAX_FOLDER_DEPTH }, (_, i) => i + 1),
      ...Array.from(
        { length: DEEPEST - MAX_FOLDER_DEPTH },
        () => MAX_FOLDER_DEPTH,
      ),
      0,
    ]);
  });

  it('refuses a hostile file of 100,000 nested folders at once, saying where and why', () => {
    const text = nested(100_000, (level) => anchor(`l${level}`));
    const result = readImport(text, { fileName: 'deep.html' });
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.error).toMatch(
      new RegExp(
        `^line \\d+: the file nests more than ${MAX_OPEN_ELEMENTS} elements inside each other \\(a bookmark export opens three per folder\\); it is not read$`,
      ),
    );
  });

  it('refuses other elements nested without end the same way', () => {
    const result = readBookmarksHtml(`${HEAD}${'<b>'.repeat(100_000)}x`);
    expect(result.ok ? '' : result.error).toMatch(/^line 3: the file nests/);
  });
});
