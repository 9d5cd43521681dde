import { describe, expect, it } from 'vitest';
import type { LinkConfig, TransferFormat } from '../schemas/index.js';
import { planImport } from './plan-import.js';
import { readImport } from './read-import.js';
import { writeBookmarksHtml, writeCsv, writeJson } from './write-formats.js';

/** Links with commas, quotes, markup, accents and line breaks in their texts. */
const config: LinkConfig = {
  allLinks: {
    plain: { url: 'https://example.com/', label: 'Example', tags: ['news'] },
    tricky: {
      url: 'https://example.com/search?q=a&b="c"',
      label: 'Commas, "quotes" & <markup>',
      tags: ['web_dev', 'c'],
      description: 'Café, déjà vu',
      meta: { addDate: 1700000000 },
    },
    bare: { url: 'https://example.org/bare', label: 'Bare' },
    formula: {
      url: 'https://example.org/f',
      label: '=HYPERLINK("https://evil.example","click")',
      description: '@SUM(1+1)',
    },
  },
};

const back = (text: string, format: TransferFormat): LinkConfig => {
  const result = readImport(text, { format });
  if (!result.ok) throw new Error(result.error);
  const plan = planImport(result.parsed, { mode: 'merge', existing: null });
  expect(plan.report.skipped).toEqual([]);
  return plan.config;
};

describe('export, then import, gives the same links', () => {
  it('JSON: the same config, ids and all', () => {
    expect(back(writeJson(config), 'json')).toEqual(config);
  });

  it('CSV: the same ids, URLs, labels, tags and descriptions', () => {
    const { tricky, ...rest } = config.allLinks;
    const { meta: _meta, ...trickyWithoutMeta } = tricky ?? { url: '' };
    expect(back(writeCsv(config), 'csv')).toEqual({
      allLinks: { ...rest, tricky: trickyWithoutMeta },
    });
  });

  it('CSV: a cell a spreadsheet would run as a formula is written as text, and read back as it was', () => {
    const csv = writeCsv(config);
    expect(csv).toContain(
      `formula,https://example.org/f,"'=HYPERLINK(""https://evil.example"",""click"")",,"'@SUM(1+1)"\n`,
    );
    expect(back(csv, 'csv').allLinks['formula']).toEqual(
      config.allLinks['formula'],
    );
  });

  it('bookmark HTML: the same links with their ids, tags and dates, tagged links in the folder of their first tag', () => {
    const html = writeBookmarksHtml(config);
    expect(html).toMatch(/^<!DOCTYPE NETSCAPE-Bookmark-file-1>/);
    expect(html).toContain('ID="tricky"');
    expect(html).toContain('TAGS="web_dev,c"');
    expect(html).toMatch(
      /<DT><H3>web_dev<\/H3>\n {4}<DL><p>\n {8}<DT><A HREF="https:\/\/example.com\/search/,
    );
    expect(back(html, 'html').allLinks).toEqual(config.allLinks);
  });

  it('bookmark HTML with folders from chosen tags: links sit in the folder, and come back with the same tags', () => {
    const html = writeBookmarksHtml(config, { folderTags: ['news'] });
    expect(html).toMatch(
      /<DT><H3>news<\/H3>\n {4}<DL><p>\n {8}<DT><A HREF="https:\/\/example.com\/" ID="plain" TAGS="news">Example<\/A>/,
    );
    const result = readImport(html, { format: 'html' });
    if (!result.ok) throw new Error(result.error);
    expect(result.parsed.candidates[0]?.folders).toEqual(['news']);
    const links = Object.values(back(html, 'html').allLinks);
    expect(links.map((l) => l.tags)).toEqual([
      ['news'],
      ['web_dev', 'c'],
      undefined,
      undefined,
    ]);
  });
});
