/**
 * fast-check arbitraries shared by the engine's property tests: random small configs over a fixed id and
 * tag vocabulary (with macros and search patterns), and expressions from every token kind plus hostile
 * material. Test-only (excluded from the build).
 */
import fc from 'fast-check';
import { NOW } from './test-catalog.js';

/** Link ids the generated configs draw from (one non-ASCII, one built-in member name). */
export const ID_POOL = [
  'a',
  'b',
  'c',
  'd',
  'e',
  '7',
  '10',
  'toString',
  'x_1',
  'ü',
];
/** Tags the generated configs draw from (one hyphenated, one blocked name). */
export const TAG_POOL = ['x', 'y', 'z', 'Y', 'w-1', 'constructor'];

/** Random small configs over a fixed id and tag vocabulary, with macros and patterns. */
export const configArb = fc.record({
  allLinks: fc.dictionary(
    fc.constantFrom(...ID_POOL),
    fc.record(
      {
        url: fc.constantFrom('https://h', 'javascript:x', '', 'data:x'),
        label: fc.constantFrom('Alpha', 'beta', 'éclair', ''),
        tags: fc.subarray(TAG_POOL),
        createdAt: fc.oneof(
          fc.integer({ min: NOW - 1e10, max: NOW + 1e9 }),
          fc.constant('2024-01-01'),
          fc.constant(null),
        ),
      },
      { requiredKeys: ['url'] },
    ),
  ),
  macros: fc.dictionary(
    fc.constantFrom('m', 'n', 'f', 'self'),
    fc.record({
      linkItems: fc.constantFrom(
        '.x | .y',
        '@n, a',
        '@f @f @f',
        '@self',
        '',
        '(b',
      ),
    }),
  ),
  searchPatterns: fc.dictionary(
    fc.constantFrom('k', 'p', 'q'),
    fc.oneof(
      fc.constantFrom('a', '(x|x)*', '^b', '(p|q)*'),
      fc.record({
        pattern: fc.constantFrom('a', 'e'),
        options: fc.record(
          {
            sort: fc.constantFrom('alpha', 'newest', 'oldest', 'x'),
            limit: fc.oneof(
              fc.integer({ min: -5, max: 5 }),
              fc.constant(null),
              fc.constant('2'),
            ),
            age: fc.constantFrom('3d', '2M', '0d', 'bad'),
            fields: fc.constantFrom('l', 'ut', 'zz', ''),
          },
          { requiredKeys: [] },
        ),
      }),
    ),
  ),
});

/** One atom of every kind, including unknown names and macro references. */
export const atomArb = fc.oneof(
  fc.constantFrom(...ID_POOL, 'zz', '__proto__'),
  fc.constantFrom(...TAG_POOL).map((t) => `.${t}`),
  fc.constantFrom('#q', '/k/', '/p/lt', '/q|u/', '/nope/', '/constructor/'),
  fc.constantFrom(
    ':time:3d:',
    ':time:today:',
    ':time:1d:9d:',
    ':location:',
    ':web:',
    ':time:',
  ),
  fc.constantFrom('@m', '@n', '@f', '@self', '@', '@nope'),
);
/** A known or unknown refiner. */
export const refinerArb = fc.constantFrom(
  '*sort*',
  '*sort:id*',
  '*reverse*',
  '*limit:2*',
  '*skip:1*',
  '*unique*',
  '*unique:label*',
  '*nope*',
);
/** A set operator with spaces around it. */
export const opArb = fc.constantFrom(' + ', ' | ', ' - ');

/** Well-formed-ish expressions from every token kind, plus hostile material. */
export const expressionArb: fc.Arbitrary<string> = fc.letrec<{
  expr: string;
  term: string;
}>((tie) => ({
  term: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    atomArb,
    tie('expr').map((e) => `(${e})`),
  ),
  expr: fc
    .tuple(
      tie('term'),
      fc.array(fc.tuple(opArb, tie('term')), { maxLength: 4 }),
      fc.array(refinerArb, { maxLength: 3 }),
    )
    .map(([first, rest, refiners]) =>
      [
        first,
        ...rest.flatMap(([op, t]) => [op, t]),
        ...refiners.map((r) => ` ${r}`),
      ].join(''),
    ),
})).expr;

/** Generated expressions plus hostile text: deep or unbalanced parentheses, unterminated tokens, noise. */
export const hostileArb = fc.oneof(
  expressionArb,
  fc
    .array(expressionArb, { minLength: 1, maxLength: 4 })
    .map((parts) => parts.join(', ')),
  fc.nat({ max: 60 }).map((n) => `${'('.repeat(n)}a`),
  fc.nat({ max: 60 }).map((n) => `a${')'.repeat(n)} | b`),
  fc.constantFrom(
    '/unterminated | a',
    ':time:3d',
    '*limit:2',
    '(.x, .y) + .z',
    '9'.repeat(400),
  ),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({
    unit: fc.constantFrom(...'()+|-,.#/:*@ abxyz\u2013é\u00a0'),
    maxLength: 80,
  }),
);
