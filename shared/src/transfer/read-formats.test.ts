import { describe, expect, it } from 'vitest';
import type { ParsedImport } from '../schemas/index.js';
import { MAX_IMPORT_BYTES, readImport } from './read-import.js';
import { readJson } from './read-json.js';
import { fixture } from './test-fixtures.js';

function read(name: string): ParsedImport {
  const result = readImport(fixture(name), { fileName: name });
  if (!result.ok) throw new Error(result.error);
  return result.parsed;
}

describe('bookmark HTML', () => {
  it('reads a Firefox export: folders, descriptions, dates, and the root folders are no folders', () => {
    const { candidates } = read('firefox.html');
    const bread = candidates.find((c) => c.label === 'Sourdough bread');
    expect(bread).toMatchObject({
      url: 'https://recipes.example.org/bread',
      tags: ['baking', 'Sourdough'],
      folders: ['Cooking & Food'],
      description: 'A slow loaf <with> a long rise',
      meta: { addDate: 1600000000, lastModified: 1600000001 },
      position: { line: 14, column: 13 },
    });
    expect(candidates.find((c) => c.label === 'Minestrone')?.folders).toEqual([
      'Cooking & Food',
      'Soups',
    ]);
    // The toolbar and "Other Bookmarks" are marked as the browser's own folders.
    expect(candidates.find((c) => c.label === 'MDN Web Docs')?.folders).toEqual(
      [],
    );
    expect(
      candidates.find((c) => c.label === 'Something to read')?.folders,
    ).toEqual([]);
    // The folder heading's dates never reach a link; the <DD> after a link belongs to it only.
    expect(
      candidates.find((c) => c.label === 'Minestrone')?.description,
    ).toBeUndefined();
  });

  it('reads a Chrome export with nested folders and decoded entities in URLs', () => {
    const { candidates } = read('chrome.html');
    expect(candidates.map((c) => c.label)).toEqual([
      'News',
      'CI — failed builds',
      'API docs',
      'News again',
      'Settings',
    ]);
    expect(candidates[1]).toMatchObject({
      url: 'https://ci.example.com/builds?branch=main&status=failed',
      folders: ['Work Tools'],
    });
    expect(candidates[3]?.folders).toEqual(['Other bookmarks']);
  });

  it('reads a Safari export, whose folders sit outside any list and carry no dates', () => {
    const { candidates } = read('safari.html');
    expect(candidates.map((c) => [c.label, c.folders])).toEqual([
      ['Apple', ['Favorites']],
      ['Café Ünïcode', ['Favorites']],
      ['A long read', ['Reading List']],
    ]);
    expect(candidates[2]?.description).toMatch(/^The first lines/);
    expect(candidates[0]?.meta).toBeUndefined();
  });

  it('reads TAGS="a,b" of Pinboard and linkding exports, and an empty TAGS as no tags', () => {
    const { candidates } = read('pinboard.html');
    expect(candidates.map((c) => c.tags)).toEqual([
      ['typescript', 'Web Dev', 'docs'],
      ['sqlite', 'databases'],
      [],
    ]);
    expect(candidates[0]?.description).toBe('The handbook');
    expect(candidates[1]?.description).toBeUndefined();
  });

  it('survives unclosed tags and markup where text belongs, and says where a link without HREF was', () => {
    const { candidates, skipped } = read('hostile.html');
    expect(candidates.map((c) => c.url)).toEqual([
      'JaVaScRiPt:alert(1)',
      ' data:text/html,<script>alert(1)</script>',
      'http://[not a host]/',
      'https://ok.example.com/one',
      'https://ok.example.com/two',
      'https://ok.example.com/three',
    ]);
    expect(candidates[3]).toMatchObject({
      label: 'Still read',
      folders: ['Unclosed folder'],
    });
    expect(candidates[5]?.label).toBe('Three');
    expect(skipped).toEqual([
      { position: { line: 7, column: 5 }, reason: 'a link without HREF' },
    ]);
  });
});

describe('CSV', () => {
  it('reads a header with synonyms in any case, a BOM, quoted commas, quotes and line breaks', () => {
    const { candidates, skipped } = read('spreadsheet.csv');
    expect(candidates[0]).toMatchObject({
      url: 'https://example.com/a',
      label: 'Hello, world',
      tags: ['news', 'Tech'],
      description: 'plain note',
      position: { line: 2 },
    });
    expect(candidates[0]?.id).toBeUndefined();
    expect(candidates[1]).toMatchObject({
      label: 'Quote "inside"',
      tags: ['alpha', 'beta'],
      description: 'two\r\nlines',
      id: 'bee',
      position: { line: 3 },
    });
    // The row after the quoted line break (and an empty line) is on line 6.
    expect(candidates[2]).toMatchObject({
      url: 'javascript:alert(1)',
      position: { line: 6 },
    });
    expect(skipped).toEqual([
      { position: { line: 7 }, reason: 'the row has no url' },
    ]);
  });

  it('reads a linkding-style CSV with space-separated tags and empty cells', () => {
    const { candidates } = read('linkding.csv');
    expect(candidates).toEqual([
      expect.objectContaining({
        url: 'https://github.com/',
        label: 'GitHub',
        tags: ['dev', 'git'],
        description: 'Code hosting, with issues',
      }),
      {
        url: 'https://example.org/only-url',
        tags: [],
        folders: [],
        position: { line: 3 },
      },
    ]);
  });

  it('refuses a file whose first row names no url column', () => {
    const result = readImport('https://a.example/,A\nhttps://b.example/,B\n', {
      format: 'csv',
    });
    expect(result).toEqual({
      ok: false,
      error: expect.stringMatching(/must name its columns/),
    });
  });

  it('reports a broken row with its line and reads the rows before it', () => {
    const result = readImport(
      'url,label\nhttps://a.example/,A\nhttps://b.example/,"B"x\n',
      { format: 'csv' },
    );
    if (!result.ok) throw new Error(result.error);
    expect(result.parsed.candidates.map((c) => c.url)).toEqual([
      'https://a.example/',
    ]);
    expect(result.parsed.skipped[0]).toMatchObject({
      position: { line: 3 },
      reason: expect.stringMatching(/^broken CSV row/),
    });
  });
});

describe('JSON', () => {
  it('reads a stored config: ids, other fields and other sections kept', () => {
    const parsed = read('config.json');
    expect(parsed.candidates[0]).toMatchObject({
      id: 'home',
      url: 'https://example.com/',
      tags: ['nav'],
      extra: { cssClass: 'big' },
      position: { line: 3 },
    });
    expect(parsed.sections).toEqual({
      macros: { nav: { linkItems: '.nav' } },
      settings: { theme: 'dark' },
    });
    expect(parsed.skipped).toEqual([
      { position: { line: 6 }, reason: 'link "nourl" has no url text' },
    ]);
  });

  it('keeps a link field named __proto__ as a field, never as a prototype', () => {
    const result = readJson(
      '{"allLinks":{"a":{"url":"https://example.com/","__proto__":{"polluted":true}}}}',
    );
    if (!result.ok) throw new Error(result.error);
    const extra = result.parsed.candidates[0]?.extra ?? {};
    expect(Object.getPrototypeOf(extra)).toBe(Object.prototype);
    expect(Object.hasOwn(extra, '__proto__')).toBe(true);
    expect((extra as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('reads a bare allLinks object and a config entry as GET /configs/:name answers it', () => {
    const bare = readImport('{"a":{"url":"https://a.example/"}}', {
      format: 'json',
    });
    const entry = readImport(
      '{"config":{"allLinks":{"a":{"url":"https://a.example/"}}},"meta":{"createdAt":"x","updatedAt":"x"}}',
    );
    for (const result of [bare, entry]) {
      if (!result.ok) throw new Error(result.error);
      expect(result.parsed.candidates.map((c) => [c.id, c.url])).toEqual([
        ['a', 'https://a.example/'],
      ]);
    }
  });

  it('refuses text that is not JSON, or JSON that holds no links', () => {
    expect(readImport('{"allLinks": [', { format: 'json' })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/not valid JSON/),
    });
    expect(readImport('[1,2]', { format: 'json' })).toMatchObject({
      ok: false,
      error: 'the JSON file must hold an object',
    });
    expect(readImport('{"allLinks": []}')).toMatchObject({
      ok: false,
      error: '"allLinks" must be an object of links',
    });
  });
});

describe('the size limit', () => {
  it('refuses a 50 MB file with its size and the limit, before reading it', () => {
    const big = 'x'.repeat(50 * 1024 * 1024);
    expect(readImport(big, { format: 'csv' })).toEqual({
      ok: false,
      error:
        'the file is 50.0 MB; an import reads at most 20.0 MB (split it into smaller files)',
    });
    expect(readImport('x'.repeat(MAX_IMPORT_BYTES + 1)).ok).toBe(false);
  });
});
