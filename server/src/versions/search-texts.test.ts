import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SearchOutput } from '@linkconfig/shared';
import type { IndexedLink } from './search-index.js';
import { jsonString, searchAnswerText } from './search-texts.js';

/** Texts that JSON escapes, and some it leaves alone. */
const AWKWARD = [
  '',
  'plain-name_1.2',
  'with "quotes"',
  'back\\slash',
  'line\nbreak\ttab',
  '\u0000\u001f\u007f',
  'é ✓ ü',
  '\u2028\u2029',
  'pair 😀',
  'lone \ud83d high',
  'lone \ude00 low',
  '\udfff\ud800',
];

/** An index entry for `link` (its kept text is what `JSON.stringify` writes). */
const entryOf = (id: string, link: Record<string, unknown>): IndexedLink => ({
  id,
  link,
  json: JSON.stringify(link),
  label: undefined,
  url: String(link['url']),
  tags: [],
  description: undefined,
});

/** A search answer of `results` (`[configName, id]`) and the index entries of its links. */
function answer(results: readonly (readonly [string, string])[]): {
  output: SearchOutput;
  entries: IndexedLink[];
} {
  const entries = results.map(([name, id]) =>
    entryOf(id, { url: `https://example.org/${id}`, label: `${name}/${id}` }),
  );
  return {
    output: {
      results: results.map(([configName, id], i) => ({
        configName,
        id,
        link: entries[i]?.link as SearchOutput['results'][number]['link'],
      })),
      configsSearched: 7,
      linksScanned: 1234,
    },
    entries,
  };
}

describe('the JSON text of a search answer', () => {
  it('quotes every text exactly as JSON.stringify does', () => {
    for (const text of AWKWARD)
      expect(jsonString(text)).toBe(JSON.stringify(text));
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(jsonString(text)).toBe(JSON.stringify(text));
      }),
      { numRuns: 500 },
    );
  });

  it('writes exactly what JSON.stringify writes for the answer, empty or not, runs of one config or not', () => {
    const cases: (readonly [string, string])[][] = [
      [],
      [['one', 'a']],
      [
        ['one', 'a'],
        ['one', 'b'],
        ['two', 'a'],
        ['one', 'c'],
      ],
      AWKWARD.map(
        (text, i) => [AWKWARD[(i + 3) % AWKWARD.length] ?? '', text] as const,
      ),
    ];
    for (const results of cases) {
      const { output, entries } = answer(results);
      expect(searchAnswerText(output, entries)).toBe(JSON.stringify(output));
    }
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.constantFrom('x', 'y', 'a"b', 'z\u0001'),
            fc.string({ unit: 'binary' }),
          ),
          {
            maxLength: 30,
          },
        ),
        (results) => {
          const { output, entries } = answer(results);
          expect(searchAnswerText(output, entries)).toBe(
            JSON.stringify(output),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('serializes a link that has no kept text', () => {
    const { output, entries } = answer([
      ['one', 'a'],
      ['one', 'b'],
    ]);
    expect(searchAnswerText(output, entries.slice(0, 1))).toBe(
      JSON.stringify(output),
    );
  });
});
