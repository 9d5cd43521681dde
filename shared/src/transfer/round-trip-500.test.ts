/**
 * 500 links out and back in, in each format: every id a format has a place for comes back unchanged
 * (CSV's id column, HTML's ID attribute, JSON's keys), links that share a URL stay apart, and what a
 * format leaves out is what `exportLosses` says before the export (issue 29, item 10).
 */
import { describe, expect, it } from 'vitest';
import type { LinkConfig, TransferFormat } from '../schemas/index.js';
import { exportLosses } from './export-losses.js';
import { planImport } from './plan-import.js';
import { readImport } from './read-import.js';
import { writeBookmarksHtml, writeCsv, writeJson } from './write-formats.js';

/** A small deterministic generator, so a failure names the same links every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const WORDS = [
  'café',
  'Bridge',
  'news',
  'a, b',
  'say "hi"',
  '<b>x</b>',
  'x & y',
  '=SUM(1)',
  'déjà',
  'tools',
];

/** 500 links: ids as the page and imports make them, 40 URLs shared by two ids, texts with commas,
 *  quotes, markup, accents, formulas and line breaks, tags, dates, and a field no format but JSON has. */
function manyLinks(): LinkConfig {
  const next = random(29);
  const pick = <T>(items: readonly T[]): T =>
    items[Math.floor(next() * items.length)] as T;
  const allLinks: Record<string, Record<string, unknown>> = {};
  for (let i = 0; i < 500; i++) {
    const id = `${pick(['link', 'site', 'doc', 'x'])}_${i}${pick(['', '_b', 'c'])}`;
    const url =
      i % 12 === 5
        ? `https://shared.example/${i - 1}`
        : `https://${pick(['a', 'b', 'c'])}.example/${i}?q=${pick(WORDS)}`;
    const tags = [
      pick(['news', 'tools', 'web_dev', 'c']),
      pick(['x', 'y', 'z']),
    ];
    allLinks[id] = {
      url: i % 12 === 4 ? `https://shared.example/${i}` : url,
      label: `${pick(WORDS)} ${i}`,
      ...(i % 3 === 0 ? {} : { tags: [...new Set(tags)] }),
      ...(i % 4 === 0
        ? { description: `${pick(WORDS)}\nline two of ${i}` }
        : {}),
      ...(i % 5 === 0 ? { meta: { addDate: 1_700_000_000 + i } } : {}),
      ...(i % 50 === 0 ? { cssClass: 'featured' } : {}),
    };
  }
  return {
    allLinks,
    macros: { m: { linkItems: '.news' } },
  } as unknown as LinkConfig;
}

const back = (text: string, format: TransferFormat): LinkConfig => {
  const read = readImport(text, { format });
  if (!read.ok) throw new Error(read.error);
  const { config, report } = planImport(read.parsed, {
    mode: 'merge',
    existing: null,
  });
  expect(report.skipped).toEqual([]);
  return config;
};

/** A link with only the fields a format carries. */
const carried = (
  link: Record<string, unknown>,
  format: TransferFormat,
): Record<string, unknown> => {
  const { url, label, tags, description, meta } = link;
  return {
    url,
    label,
    ...(tags === undefined ? {} : { tags }),
    ...(description === undefined ? {} : { description }),
    ...(format === 'html' && meta !== undefined ? { meta } : {}),
  };
};

describe('500 links exported and imported again', () => {
  const config = manyLinks();
  const ids = Object.keys(config.allLinks);

  it('has links that share a URL, and only ids an expression can name', () => {
    const urls = Object.values(config.allLinks).map((link) => link.url);
    expect(new Set(urls).size).toBeLessThan(500);
    expect(ids.every((id) => /^\w+$/.test(id))).toBe(true);
  });

  it.each([
    ['csv', {}],
    ['html', { folderTags: [] }],
  ] as const)(
    '%s: every id comes back in order, each link with what the format carries; the rest is said before',
    (format, html) => {
      const text =
        format === 'csv' ? writeCsv(config) : writeBookmarksHtml(config, html);
      const links = back(text, format).allLinks;
      expect(Object.keys(links)).toEqual(ids);
      for (const id of ids) {
        const link = config.allLinks[id] as Record<string, unknown>;
        expect(links[id], id).toEqual(carried(link, format));
      }
      expect(exportLosses(config, format, html)).toEqual([
        `the config's macros (${format === 'csv' ? 'CSV' : 'bookmarks'} holds links only; JSON keeps them)`,
        format === 'csv'
          ? 'link fields: meta.addDate (100 links), cssClass (10 links)'
          : 'link fields: cssClass (10 links)',
      ]);
    },
  );

  it('html with folders by tag: every id comes back, and the changed order is said before', () => {
    const links = back(writeBookmarksHtml(config), 'html').allLinks;
    expect(Object.keys(links).sort()).toEqual([...ids].sort());
    for (const id of ids) {
      const link = config.allLinks[id] as Record<string, unknown>;
      expect(links[id], id).toEqual(carried(link, 'html'));
    }
    expect(exportLosses(config, 'html')).toContain(
      'the order of links: the file groups them into folders by tag (an import reads them in that order)',
    );
  });

  it('json: the same config, and nothing to say', () => {
    expect(back(writeJson(config), 'json')).toEqual(config);
    expect(exportLosses(config, 'json')).toEqual([]);
  });

  it('names ids an import would rename, and links without a URL', () => {
    const odd = {
      allLinks: {
        'my-link': { url: 'https://a.example/' },
        '2024': { url: 'https://b.example/' },
        broken: { label: 'no url' },
      },
    } as unknown as LinkConfig;
    expect(exportLosses(odd, 'csv')).toEqual([
      '1 link without a URL: broken',
      '1 id an expression cannot name (my-link): the file has it, but an import gives it a new one',
    ]);
  });
});
