import fc from 'fast-check';
import { RE2JS } from 're2js';
import { SEARCH_FIELDS } from '@linkconfig/shared';
import type { SearchField } from '@linkconfig/shared';
import { describe, expect, it } from 'vitest';
import { searchLinks } from './test-search-links.js';
import { buildSearchIndex } from '../versions/search-index.js';
import { compile } from './compiled-pattern.js';
import { requiredLiterals } from './regex-literals.js';
import { regexCandidates, regexMatches, someFieldText } from './regex-links.js';

const WORDS = [
  'guide',
  'City',
  'cıty',
  'ab',
  'Sun',
  'ſun',
  'KEY',
  'key',
  '\u212aey', // the Kelvin sign folds to k, yet is no word character for \b
  '😀',
  '',
  'é',
  'a.b',
  'x y',
  'q',
];
const link = searchLinks(WORDS, 5);
const alternatives = fc
  .array(
    fc.constantFrom('guide', 'city', 'sun', 'key', 'ab', 'a\\.b', 'x y', 'é'),
    { minLength: 1, maxLength: 4 },
  )
  .map((words) => words.join('|'));
const pattern = fc.oneof(
  alternatives,
  alternatives.map((a) => `\\b(${a})\\s+\\w+`),
  // The shapes decided without re2js (decided-pattern.ts), and near misses.
  alternatives.chain((a) =>
    fc.constantFrom(
      `\\B(${a})\\s+\\w+`,
      `\\b(?:${a})\\s+\\d`,
      `\\b(${a})\\W+\\w*`,
      `(${a})\\S\\s`,
      `\\b(${a})\\s*\\w+`,
      `\\b(${a})\\s+\\w+\\b`,
    ),
  ),
  alternatives.map((a) => `(${a}) (key|sun)`),
  fc.constantFrom('gu[a-z]*de', 'cit.{0,8}sun', '^sun', 'key\\b', 'ab?'),
);

describe('regex-links', () => {
  it('lists every link that matches among the candidates, and tells a match as a test of every selected field does', () => {
    fc.assert(
      fc.property(
        fc.array(link, { minLength: 1, maxLength: 40 }),
        pattern,
        fc.subarray([...SEARCH_FIELDS], { minLength: 1 }),
        (links, source, selected) => {
          const index = buildSearchIndex(
            Object.fromEntries(links.map((l, i) => [`l${i}`, l])),
          );
          const full = RE2JS.compile(source, RE2JS.CASE_INSENSITIVE);
          const literals = requiredLiterals(source);
          const query = {
            regex: compile(source, 'regex'),
            literals,
            fields: new Set<SearchField>(selected),
          };
          const some =
            literals === null ? null : regexCandidates(index, literals);
          const candidates = some === null ? null : [...some];
          if (candidates !== null) {
            // Ascending, each position once.
            expect(candidates).toEqual(
              [...new Set(candidates)].sort((a, b) => a - b),
            );
          }
          index.links.forEach((entry, position) => {
            const matches = selected.some((field) =>
              someFieldText(entry, field, (t) => full.matcher(t).find()),
            );
            expect(regexMatches(index, position, query), source).toBe(matches);
            if (matches && candidates !== null) {
              expect(candidates, source).toContain(position);
            }
          });
        },
      ),
      { numRuns: 400 },
    );
  });
});
