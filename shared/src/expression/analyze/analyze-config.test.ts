import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CONFIG_DIAGNOSTIC_CODES } from '../../schemas/index.js';
import type { ConfigDiagnosticCode } from '../../schemas/index.js';
import { analyzeConfig } from './analyze-config.js';
import { configArb } from '../test-arbitraries.js';

const url = 'https://x.example';

/** Rows: what the config holds, the expected code, and the path it points at. */
const ROWS: readonly (readonly [
  name: string,
  config: unknown,
  code: ConfigDiagnosticCode,
  path: readonly (string | number)[],
])[] = [
  ['a config that is not an object', ['x'], 'invalid-config', []],
  ['no allLinks', { macros: {} }, 'missing-links', ['allLinks']],
  [
    'a link that is not an object',
    { allLinks: { a: 'https://x' } },
    'dropped-link',
    ['allLinks', 'a'],
  ],
  [
    'a link without a string url',
    { allLinks: { a: { label: 'A' } } },
    'dropped-link',
    ['allLinks', 'a'],
  ],
  [
    'an id with a hyphen',
    { allLinks: { 'new-york': { url } } },
    'unreachable-id',
    ['allLinks', 'new-york'],
  ],
  [
    'a reserved id',
    JSON.parse(`{"allLinks":{"__proto__":{"url":"${url}"}}}`),
    'reserved-name',
    ['allLinks', '__proto__'],
  ],
  [
    'a tag with a hyphen',
    { allLinks: { a: { url, tags: ['ok', 'big-apple'] } } },
    'unreachable-tag',
    ['allLinks', 'a', 'tags', 1],
  ],
  [
    'a tag that is not a string',
    { allLinks: { a: { url, tags: [3] } } },
    'dropped-tag',
    ['allLinks', 'a', 'tags', 0],
  ],
  [
    'tags that are not an array',
    { allLinks: { a: { url, tags: 'x' } } },
    'dropped-tag',
    ['allLinks', 'a', 'tags'],
  ],
  [
    'a macro name with a hyphen',
    { allLinks: {}, macros: { 'my-macro': { linkItems: 'a' } } },
    'unreachable-macro',
    ['macros', 'my-macro'],
  ],
  [
    'a macro without string linkItems',
    { allLinks: {}, macros: { m: { linkItems: 3 } } },
    'dropped-macro',
    ['macros', 'm'],
  ],
  [
    'a macros section that is not an object',
    { allLinks: {}, macros: [] },
    'dropped-macro',
    ['macros'],
  ],
  [
    'a search-pattern key with a hyphen',
    { allLinks: {}, searchPatterns: { 'my-key': 'x' } },
    'unreachable-search-pattern',
    ['searchPatterns', 'my-key'],
  ],
  [
    'a search pattern of the wrong shape',
    { allLinks: {}, searchPatterns: { k: { regex: 'x' } } },
    'invalid-search-pattern',
    ['searchPatterns', 'k'],
  ],
  [
    'a search pattern that is not a regular expression',
    { allLinks: {}, searchPatterns: { k: '(' } },
    'invalid-search-pattern',
    ['searchPatterns', 'k'],
  ],
  [
    'an unsafe search pattern',
    { allLinks: {}, searchPatterns: { k: { pattern: '(a+)+' } } },
    'unsafe-search-pattern',
    ['searchPatterns', 'k', 'pattern'],
  ],
  [
    'a pattern the linear-time engine refuses',
    { allLinks: {}, searchPatterns: { k: '(?=a)a' } },
    'unsafe-search-pattern',
    ['searchPatterns', 'k'],
  ],
  [
    'an age that does not parse',
    {
      allLinks: {},
      searchPatterns: { k: { pattern: 'a', options: { age: '1y' } } },
    },
    'ignored-option',
    ['searchPatterns', 'k', 'options', 'age'],
  ],
  [
    'a sort that is not known',
    {
      allLinks: {},
      searchPatterns: { k: { pattern: 'a', options: { sort: 'label' } } },
    },
    'ignored-option',
    ['searchPatterns', 'k', 'options', 'sort'],
  ],
  [
    'fields that are not a string',
    {
      allLinks: {},
      searchPatterns: { k: { pattern: 'a', options: { fields: 3 } } },
    },
    'ignored-option',
    ['searchPatterns', 'k', 'options', 'fields'],
  ],
  [
    'more than 100 problems',
    {
      allLinks: Object.fromEntries(
        Array.from({ length: 150 }, (_, i) => [`id-${i}`, { url }]),
      ),
    },
    'too-many-diagnostics',
    [],
  ],
];

describe('analyzeConfig', () => {
  it.each(
    ROWS.map(([name, config, code, path]) => ({ name, config, code, path })),
  )('reports $name', ({ config, code, path }) => {
    const found = analyzeConfig(config).filter((d) => d.code === code);
    expect(found.map((d) => d.path)).toContainEqual(path);
  });

  it('covers every config diagnostic code', () => {
    const covered = new Set(ROWS.map(([, , code]) => code));
    expect([...CONFIG_DIAGNOSTIC_CODES].sort()).toEqual([...covered].sort());
  });

  it('reports nothing for a config preparation keeps whole', () => {
    expect(
      analyzeConfig({
        allLinks: { a: { url, tags: ['x', 'y'] }, b: { url: '' } },
        macros: { m: { linkItems: '.x' } },
        searchPatterns: {
          k: 'a',
          o: {
            pattern: 'b',
            options: { age: '3d', sort: 'newest', fields: 'l' },
          },
        },
        settings: { anything: true },
      }),
    ).toEqual([]);
  });

  it('explains how a hyphenated tag reads in an expression', () => {
    const [tag] = analyzeConfig({
      allLinks: { a: { url, tags: ['new-york'] } },
    });
    expect(tag).toMatchObject({ severity: 'warning', code: 'unreachable-tag' });
    expect(tag?.message).toContain(
      '`.new-york` reads as `.new` without `york`',
    );
  });

  it('caps the list at 100, the last entry saying how many more there were', () => {
    const list = analyzeConfig(ROWS.at(-1)?.[1]);
    expect(list).toHaveLength(100);
    expect(list.at(-1)?.message).toBe('51 more problems are not listed');
  });

  it('never throws on random configs', () => {
    fc.assert(
      fc.property(fc.oneof(configArb, fc.anything()), (config) => {
        expect(Array.isArray(analyzeConfig(config))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
