/**
 * What a bookmark file holds reaches the import as written, or the report says what did not: a
 * description with markup keeps its text (scripts and frames left out, `<BR>` a line break), times in
 * seconds are numbers and a time no date can hold is noted rather than stored as text, and bytes that
 * are not UTF-8 are reported, in URLs by skipping the link (issue 29, item 9).
 */
import { describe, expect, it } from 'vitest';
import type { ParsedImport } from '../schemas/index.js';
import { decodeImportBytes } from './decode-import.js';
import { planImport } from './plan-import.js';
import { readImport } from './read-import.js';

const HEAD = '<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n';
const link = (n: number, rest = ''): string =>
  `<DT><A HREF="https://${n}.example/"${rest}>Link ${n}</A>\n`;

function read(text: string, malformedLines?: readonly number[]): ParsedImport {
  const result = readImport(text, { format: 'html', malformedLines });
  if (!result.ok) throw new Error(result.error);
  return result.parsed;
}

describe('bookmark descriptions', () => {
  it('keep their text through markup, without what scripts and frames hold', () => {
    const { candidates } = read(
      [
        HEAD,
        link(1),
        '<DD><b>bold</b> desc\n',
        link(2),
        '<DD><iframe src="https://frame.example/">inside</iframe>After\n',
        link(3),
        '<DD>before<script>alert(1)</script> after <style>p{}</style>end\n',
        link(4),
        '<DD>a <a-ish>custom</a-ish> <span title="t">element</span>\n',
        '</DL><p>\n',
      ].join(''),
    );
    expect(candidates.map((c) => c.description)).toEqual([
      'bold desc',
      'After',
      'before after end',
      'a custom element',
    ]);
  });

  it('keep line breaks written as <BR>, and end where the next item starts', () => {
    const { candidates } = read(
      `${HEAD}${link(1)}<DD>line one<BR>line   two<br/>\n  three\n${link(2)}</DL><p>\n`,
    );
    expect(candidates[0]?.description).toBe('line one\nline two\nthree');
    expect(candidates[1]?.description).toBeUndefined();
  });
});

describe('bookmark times', () => {
  it('are numbers of seconds; a time no date can hold is noted and not kept', () => {
    const parsed = read(
      [
        HEAD,
        link(1, ' ADD_DATE="1700000000" LAST_MODIFIED="-5"'),
        link(2, ' ADD_DATE="99999999999999999999" LAST_MODIFIED="soon"'),
        '</DL><p>\n',
      ].join(''),
    );
    expect(parsed.candidates.map((c) => c.meta)).toEqual([
      { addDate: 1700000000, lastModified: -5 },
      undefined,
    ]);
    const { report } = planImport(parsed, { mode: 'merge', existing: null });
    expect(report.notes).toEqual([
      {
        position: { line: 4, column: 5 },
        url: 'https://2.example/',
        note: 'ADD_DATE="99999999999999999999" is not a time in seconds that a date can hold; it was not kept',
      },
      {
        position: { line: 4, column: 5 },
        url: 'https://2.example/',
        note: 'LAST_MODIFIED="soon" is not a time in seconds that a date can hold; it was not kept',
      },
    ]);
  });
});

describe('bytes that are not UTF-8', () => {
  const bytes = (text: string, bad: Record<string, number[]>): Uint8Array => {
    let out = Buffer.from(text, 'utf8');
    for (const [marker, replacement] of Object.entries(bad)) {
      const at = out.indexOf(marker);
      out = Buffer.concat([
        out.subarray(0, at),
        Buffer.from(replacement),
        out.subarray(at + marker.length),
      ]);
    }
    return new Uint8Array(out);
  };

  it('are named by line; a URL that held them is skipped, a label keeps the replacement and is noted', () => {
    const file = bytes(
      `${HEAD}<DT><A HREF="https://ok.example/caf@">Caf# bar</A>\n<DT><A HREF="https://fine.example/">Fine</A>\n</DL><p>\n`,
      { '@': [0xe9], '#': [0xc3, 0x28] },
    );
    const decoded = decodeImportBytes(file);
    expect(decoded.malformedLines).toEqual([3]);
    const parsed = read(decoded.text, decoded.malformedLines);
    const { report, config } = planImport(parsed, {
      mode: 'merge',
      existing: null,
    });
    expect(report.skipped).toEqual([
      {
        position: { line: 3, column: 5 },
        url: 'https://ok.example/caf\uFFFD',
        reason:
          'the URL held bytes that are not UTF-8 (shown as \uFFFD), so it is not the address the file meant',
      },
    ]);
    expect(report.notes).toEqual([
      {
        position: { line: 3 },
        note: 'bytes that are not UTF-8 were read as \uFFFD (the file is not saved as UTF-8)',
      },
    ]);
    expect(Object.keys(config.allLinks)).toEqual(['fine']);
  });

  it('leave a UTF-8 file as it is, a replacement character in it included', () => {
    const decoded = decodeImportBytes(
      new TextEncoder().encode(
        '\uFEFFurl,label\nhttps://a.example/\uFFFD,caf\u00e9\n',
      ),
    );
    expect(decoded).toEqual({
      text: 'url,label\nhttps://a.example/\uFFFD,caf\u00e9\n',
      malformedLines: [],
    });
  });
});
