import fc from 'fast-check';
import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import {
  DECIDED_LITERAL_UNITS,
  decidedPattern,
  decidedTest,
} from './decided-pattern.js';

/** What re2js answers, the way searches compile a pattern. */
const full = (pattern: string, text: string): boolean =>
  RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE).matcher(text).find();

/** Pieces of texts near every rule: case, the folded signs, word edges, whitespace re2js does not count. */
const PIECES = [
  'guide',
  'GUIDE',
  'City',
  'key',
  'KEY',
  '\u212aey', // Kelvin sign: folds to k, yet no word character for \b
  'sun',
  '\u017fun', // long s
  'a.b',
  'x y',
  '1st',
  '_id',
  'é',
  'İ',
  '\u0131',
  ' ',
  '  ',
  '\t',
  '\n',
  '\u000b', // vertical tab: no \s in RE2
  '\u00a0',
  '-',
  '.',
  '_',
  '7',
  'x',
  '😀',
  '\ud800', // lone surrogates
  '\udc00',
];
const text = fc
  .array(fc.constantFrom(...PIECES), { maxLength: 12 })
  .map((pieces) => pieces.join(''));

const WORDS = [
  'guide',
  'city',
  'Key',
  'sun',
  'S',
  'a\\.b',
  'x y',
  '1st',
  '_id',
  '-',
  'k',
];
const CLASSES = ['\\s', '\\S', '\\w', '\\W', '\\d', '\\D'];
/** Near misses: what the decided shape does not take. */
const OTHERS = ['\\b', '.', '[a-z]', 'x'];
const QUANTIFIERS = ['', '+', '*', '?', '+?', '{2}'];
const suffix = fc
  .array(
    fc.tuple(
      fc.oneof(
        { weight: 5, arbitrary: fc.constantFrom(...CLASSES) },
        { weight: 1, arbitrary: fc.constantFrom(...OTHERS) },
      ),
      fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom('', '+') },
        { weight: 1, arbitrary: fc.constantFrom(...QUANTIFIERS) },
      ),
    ),
    { maxLength: 4 },
  )
  .map((items) => items.map(([c, q]) => c + q).join(''));
const pattern = fc
  .tuple(
    fc.constantFrom('', '\\b', '\\B', '^'),
    fc.constantFrom('(', '(?:', '(?P<w>', '(?<w>', ''),
    fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }),
    fc.oneof(
      suffix,
      fc.constantFrom(
        '\\s+\\w+',
        '\\s+\\w*',
        '\\s\\w',
        '\\W+\\w',
        '\\s+\\d+\\s',
        // Assertions at the end: decided right after the literals only.
        '\\b',
        '\\B',
        '$',
        '\\s\\b',
        '$x',
      ),
    ),
    fc.boolean(),
  )
  .map(([assertion, open, words, rest, whole]) =>
    open === ''
      ? // A `|` outside a group splits the whole pattern.
        `${assertion}${whole ? words.join('|') : (words[0] ?? '')}${rest}`
      : `${assertion}${open}${words.join('|')})${rest}`,
  );

describe('decided patterns', () => {
  it.each([
    '\\b(guide|city)\\s+\\w+',
    '\\b(?:Guide|CITY)\\s+\\w+',
    '\\B(?P<w>ide)\\s+\\w',
    'sun\\s+\\d+\\s',
    '\\bkey\\W+\\w',
    '\\b(a\\.b|x y)',
    '\\b(guide|city)\\s+\\w*',
    '^guide\\s+\\w+',
    '\\bguide\\b',
    '(guide|city)$',
    'guide|city|x y',
  ])('%s is decided', (source) => {
    expect(decidedPattern(source)).not.toBeNull();
  });

  it.each([
    '\\b(guide|city)\\s*\\w+', // an optional class before another: not greedy-exact
    '\\b(guide|city)\\w+\\w', // a run before a class sharing its characters
    '\\b(guide|)\\s+\\w+', // an empty alternative
    '\\b(guide|city)+\\s+\\w+', // a repeated group
    '\\bguide|city', // the boundary belongs to the first alternative only
    'guide|city\\s+\\w',
    'a\\|b|c',
    'guide\\s\\b', // an assertion after a class
    '\\b(guid.|city)\\s+\\w+',
    '\\b(guide|city)\\s+?\\w+',
    '\\b(gu[i]de)\\s+\\w+',
    '(?i)guide',
    '\\b(caf\u00e9)\\s+\\w+', // non-ASCII literals are left to re2js
    'guide+\\s',
    '\\bguide\\s+\\s', // a run, then a class sharing its characters
    '\\bkey\\S+\\W',
  ])('%s is left to re2js', (source) => {
    expect(decidedPattern(source)).toBeNull();
  });

  it('leaves patterns with long literals to re2js (the scan compares them at every position that starts one)', () => {
    const long = 'a'.repeat(DECIDED_LITERAL_UNITS - 1);
    expect(decidedPattern(`${long}b`)).not.toBeNull();
    expect(decidedPattern(`${long}ab`)).toBeNull();
    expect(decidedPattern(`\\b(${long}a|b)\\s+\\w`)).toBeNull();
    const many = Array.from(
      { length: 49 },
      (_, i) => `aaaaaaaaaaaaaaaaaaa${String.fromCharCode(98 + (i % 24))}`,
    );
    expect(decidedPattern(`(${many.join('|')})`)).toBeNull();
    expect(decidedPattern(many.join('|'))).toBeNull();
  });

  it('answers what re2js answers, on every text, for every pattern it decides', () => {
    let decided = 0;
    fc.assert(
      fc.property(
        pattern,
        fc.array(text, { maxLength: 8 }),
        (source, texts) => {
          const shape = decidedPattern(source);
          if (shape === null) return;
          decided++;
          const test = decidedTest(shape);
          for (const t of [...texts, '']) {
            expect(test(t), `${source} on ${JSON.stringify(t)}`).toBe(
              full(source, t),
            );
          }
        },
      ),
      { numRuns: 3000 },
    );
    // The generator reaches the decided shapes often, not by luck.
    expect(decided).toBeGreaterThan(500);
  });

  it('answers what re2js answers on texts made around the pattern’s own words', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('guide', 'city', 'key', 'sun'), {
          minLength: 1,
          maxLength: 3,
        }),
        fc.array(
          fc.oneof(
            text,
            fc.constantFrom('guide', 'CITY', 'Key', '\u212aEY', '\u017fUN'),
          ),
          { maxLength: 10 },
        ),
        (words, pieces) => {
          const source = `\\b(${words.join('|')})\\s+\\w+`;
          const shape = decidedPattern(source);
          expect(shape).not.toBeNull();
          if (shape === null) return;
          const t = pieces.join('');
          expect(decidedTest(shape)(t), JSON.stringify(t)).toBe(
            full(source, t),
          );
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('answers what re2js answers for a class or a run followed by a class (where greedy runs or a surrogate pair could go wrong)', () => {
    fc.assert(
      fc.property(
        fc.tuple(
          fc.constantFrom('', '\\b', '\\B'),
          fc.constantFrom(...WORDS),
          fc.constantFrom(...CLASSES),
          fc.constantFrom('', '+'),
          fc.constantFrom(...CLASSES),
        ),
        fc.array(fc.oneof(text, fc.constantFrom(...WORDS)), { maxLength: 6 }),
        ([assertion, word, run, many, next], pieces) => {
          const source = `${assertion}${word}${run}${many}${next}`;
          const shape = decidedPattern(source);
          if (shape === null) return;
          const t = pieces.join('');
          expect(
            decidedTest(shape)(t),
            `${source} on ${JSON.stringify(t)}`,
          ).toBe(full(source, t));
        },
      ),
      { numRuns: 3000 },
    );
  });
});
