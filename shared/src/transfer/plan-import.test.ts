import { describe, expect, it } from 'vitest';
import type { LinkConfig, ParsedImport } from '../schemas/index.js';
import { resolve } from '../expression/evaluate/resolve.js';
import { prepareConfig } from '../expression/prepare/prepare.js';
import { normalizeTag } from '../links/tags.js';
import { planImport } from './plan-import.js';
import { splitByTopFolder } from './split-folders.js';
import { readImport } from './read-import.js';
import { fixture } from './test-fixtures.js';

function parsed(name: string): ParsedImport {
  const result = readImport(fixture(name), { fileName: name });
  if (!result.ok) throw new Error(result.error);
  return result.parsed;
}

const existing: LinkConfig = {
  allLinks: {
    sourdough_bread: { url: 'https://other.example/', label: 'Taken id' },
    mdn: { url: 'https://developer.mozilla.org/en-US/', tags: ['docs'] },
  },
  macros: { m: { linkItems: '.docs' } },
};

describe('planning an import', () => {
  it('refuses javascript:, browser-internal and malformed URLs with their position, and stores none of them', () => {
    const { config, report } = planImport(parsed('hostile.html'), {
      mode: 'merge',
      existing: null,
    });
    expect(report.skipped.map((s) => [s.position.line, s.reason])).toEqual([
      [4, expect.stringMatching(/script-capable/)],
      [5, expect.stringMatching(/script-capable/)],
      [6, 'not a valid absolute URL'],
      [7, 'a link without HREF'],
    ]);
    const urls = Object.values(config.allLinks).map((link) => link.url);
    expect(urls).toEqual([
      'https://ok.example.com/one',
      'https://ok.example.com/two',
      'https://ok.example.com/three',
    ]);
  });

  it('merges by URL into an existing config: no duplicate, new tags added, ids never clash', () => {
    const { config, report } = planImport(parsed('firefox.html'), {
      mode: 'merge',
      existing,
    });
    const ids = Object.keys(config.allLinks);
    // The stored links stay first and unchanged in place; the bread's readable id was taken.
    expect(ids.slice(0, 2)).toEqual(['sourdough_bread', 'mdn']);
    expect(config.allLinks['sourdough_bread']?.url).toBe(
      'https://other.example/',
    );
    expect(config.allLinks['sourdough_bread_2']?.url).toBe(
      'https://recipes.example.org/bread',
    );
    expect(report.merged).toEqual([
      { id: 'mdn', url: 'https://developer.mozilla.org/en-US/' },
    ]);
    expect(config.allLinks['mdn']).toEqual({
      url: 'https://developer.mozilla.org/en-US/',
      tags: ['docs'],
      label: 'MDN Web Docs',
    });
    expect(report.added).toEqual([
      'about_mozilla',
      'sourdough_bread_2',
      'minestrone',
      'something_to_read',
    ]);
    expect(config.macros).toEqual(existing.macros);
    expect(
      Object.values(config.allLinks).filter(
        (l) => l.url === 'https://developer.mozilla.org/en-US/',
      ),
    ).toHaveLength(1);
  });

  it('importing the same file twice adds nothing the second time', () => {
    const first = planImport(parsed('pinboard.html'), {
      mode: 'merge',
      existing: null,
    });
    const second = planImport(parsed('pinboard.html'), {
      mode: 'merge',
      existing: first.config,
    });
    expect(second.report.added).toEqual([]);
    expect(second.report.merged).toHaveLength(3);
    expect(second.report.tagsCreated).toEqual([]);
    expect(second.config).toEqual(first.config);
  });

  it('treats the same URL twice in one file as one link (URLs compared in their parsed form)', () => {
    const { config, report } = planImport(parsed('chrome.html'), {
      mode: 'merge',
      existing: null,
    });
    expect(Object.keys(config.allLinks)).toEqual([
      'news',
      'ci_failed_builds',
      'api_docs',
    ]);
    expect(report.merged).toEqual([
      { id: 'news', url: 'https://NEWS.example.net' },
    ]);
    expect(config.allLinks['news']?.tags).toEqual(['other_bookmarks']);
  });

  it('replace mode makes the file the whole allLinks, keeping the id of a URL that was stored', () => {
    const { config, report } = planImport(parsed('firefox.html'), {
      mode: 'replace',
      existing,
    });
    expect(config.allLinks['mdn']?.label).toBe('MDN Web Docs');
    expect(config.allLinks['sourdough_bread']?.url).toBe(
      'https://recipes.example.org/bread',
    );
    expect(Object.keys(config.allLinks)).toHaveLength(5);
    expect(report.merged).toEqual([]);
    expect(config.macros).toEqual(existing.macros);
  });

  it('keeps a usable id the file asks for and renames one expressions could not name', () => {
    const { config } = planImport(parsed('config.json'), {
      mode: 'merge',
      existing: null,
    });
    expect(Object.keys(config.allLinks)).toEqual(['home', 'docs']);
    expect(config.allLinks['home']).toEqual({
      url: 'https://example.com/',
      label: 'Home',
      tags: ['nav'],
      cssClass: 'big',
    });
    expect(config.settings).toEqual({ theme: 'dark' });
  });

  it('makes ids readable, unique, and never integer-like or a blocked name', () => {
    const result = readImport(
      'url,label\nhttps://a.example/1,2024\nhttps://a.example/2,2024\nhttps://a.example/3,constructor\nhttps://a.example/4,\n',
      { format: 'csv' },
    );
    if (!result.ok) throw new Error(result.error);
    const { config } = planImport(result.parsed, {
      mode: 'merge',
      existing: null,
    });
    expect(Object.keys(config.allLinks)).toEqual([
      'link_2024',
      'link_2024_2',
      'link_constructor',
      'https_a_example_4',
    ]);
  });

  it('normalizes tags so that a tag expression selects them', () => {
    expect(
      ['Web Dev', 'C++', 'Café', '--', 'été/2024'].map(normalizeTag),
    ).toEqual(['web_dev', 'c', 'cafe', '', 'ete_2024']);
    const { config, report } = planImport(parsed('pinboard.html'), {
      mode: 'merge',
      existing: null,
    });
    expect(report.tagsCreated).toEqual([
      'typescript',
      'web_dev',
      'docs',
      'sqlite',
      'databases',
    ]);
    expect(report.tagRule).toMatch(/lower-cased/);
    const links = resolve(prepareConfig(config), '.web_dev');
    expect(links.map((l) => l.id)).toEqual(['typescript_docs']);
  });

  it('folders as tags can be turned off', () => {
    const { config } = planImport(parsed('safari.html'), {
      mode: 'merge',
      existing: null,
      foldersAsTags: false,
    });
    expect(
      Object.values(config.allLinks).every((l) => l.tags === undefined),
    ).toBe(true);
  });
});

describe('a config per top folder', () => {
  it('splits by the outermost folder, which is no longer a tag', () => {
    const parts = splitByTopFolder(parsed('chrome.html'));
    expect(
      parts.map((part) => [
        part.folder,
        part.suffix,
        part.parsed.candidates.map((c) => c.label),
      ]),
    ).toEqual([
      ['', '', ['News']],
      ['Work Tools', 'work_tools', ['CI — failed builds', 'API docs']],
      ['Other bookmarks', 'other_bookmarks', ['News again', 'Settings']],
    ]);
    const inner = parts[1]?.parsed.candidates[0];
    expect(inner?.folders).toEqual([]);
    const safari = splitByTopFolder(parsed('safari.html'));
    expect(safari.map((part) => part.suffix)).toEqual([
      'favorites',
      'reading_list',
    ]);
    const { config } = planImport(safari[1]!.parsed, {
      mode: 'merge',
      existing: null,
    });
    expect(config.allLinks['a_long_read']?.tags).toBeUndefined();
  });

  it('numbers folders whose names fold to the same suffix, as ids are numbered', () => {
    const html = [
      '<DL><p>',
      ...['Web Dev', 'web-dev', 'Web_Dev_2', 'WEB DEV'].map(
        (folder, i) =>
          `<DT><H3>${folder}</H3>\n<DL><p>\n<DT><A HREF="https://x.example/${i}">l${i}</A>\n</DL><p>`,
      ),
      '</DL><p>',
    ].join('\n');
    const read = readImport(html, { format: 'html' });
    if (!read.ok) throw new Error(read.error);
    expect(splitByTopFolder(read.parsed).map((part) => part.suffix)).toEqual([
      'web_dev',
      'web_dev_2',
      'web_dev_2_2',
      'web_dev_3',
    ]);
  });
});

describe('ids from a stored config', () => {
  it('merges into a stored link whose id is __proto__ as an own key, never a prototype', () => {
    const stored = JSON.parse(
      '{"allLinks":{"__proto__":{"url":"https://proto.example/"}}}',
    ) as LinkConfig;
    const read = readImport('url,tags\nhttps://proto.example/,new\n', {
      format: 'csv',
    });
    if (!read.ok) throw new Error(read.error);
    const { config } = planImport(read.parsed, {
      mode: 'merge',
      existing: stored,
    });
    expect(Object.hasOwn(config.allLinks, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(config.allLinks)).toBe(Object.prototype);
    expect(config.allLinks['__proto__']?.tags).toEqual(['new']);
  });
});
