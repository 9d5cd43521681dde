/**
 * Parsing and evaluation (docs/expression-reference.md §4–§7, §11). Section numbers (§) and rule ids (P, D)
 * in the test names are that document's.
 */
import { describe, expect, it } from 'vitest';
import { prepareConfig } from '../prepare/prepare.js';
import { configOf, example, ids } from '../test-catalog.js';

type Row = [expression: string, expected: string];

const table = (title: string, rows: Row[]): void => {
  describe(title, () => {
    it.each(rows)('%j → %j', (expression, expected) => {
      expect(ids(example, expression)).toBe(expected);
    });
  });
};

table('atoms (§5)', [
  ['a', 'a'],
  ['A', ''],
  ['zz', ''],
  ['toString', ''],
  ['constructor', ''],
  ['__proto__', ''],
  ['.x', 'a,b,d'],
  ['.y', 'b,c'],
  ['.z', 'd,e'],
  ['.X', ''],
  ['.q', ''],
  ['#q', ''],
  ['.y + #q', ''],
  ['#q | .y', 'b,c'],
]);

table('set operators (§4)', [
  ['.x + .y', 'b'],
  ['.x | .y', 'a,b,d,c'],
  ['.y | .x', 'b,c,a,d'],
  ['.x - .y', 'a,d'],
  ['.y - .x', 'c'],
  ['.x + .x', 'a,b,d'],
  ['.x - .x', ''],
  ['e | a | c', 'e,a,c'],
  ['.z + d', 'd'],
]);

table('P1 left to right, no precedence', [
  ['.x | .y + .z', 'd'],
  ['.x | (.y + .z)', 'a,b,d'],
  ['.x - .y | .z', 'a,d,e'],
  ['.x - (.y | .z)', 'a'],
  ['.z + .x | .y', 'd,b,c'],
]);

table('P2/P3 empty slots and leading operators', [
  ['- .x', 'a,b,d'],
  ['+ .x', 'a,b,d'],
  ['| .x', 'a,b,d'],
  ['+ - .x', ''],
  ['+ | .x', 'a,b,d'],
  ['#q + .x', ''],
  ['() | .y', 'b,c'],
  ['+', ''],
  ['- - .x', ''],
]);

table('P4 operators without a right operand', [
  ['.x +', 'a,b,d'],
  ['.x -', 'a,b,d'],
  ['.x |', 'a,b,d'],
  ['.x + )', ''],
  ['.x - )', 'a,b,d'],
  ['.x + , .y', 'b,c'],
  ['.x + | .y', 'b,c'],
  ['.x | + .y', 'b'],
  ['.x + *sort*', ''],
  ['.x - *sort*', 'b,d,a'],
  ['(.x +) | .z', 'd,e'],
]);

table('P5/P6 refiners close a segment; anything unexpected stops', [
  ['a b | c', 'a'],
  ['.x *limit:1* | .y', 'a'],
  ['.x .y', 'a,b,d'],
  [') .x', ''],
  ['(.x)(.y)', 'a,b,d'],
  ['.x *limit:1*, .y', 'a,b,c'],
  ['.x, *sort*', 'a,b,d'],
  ['*sort* .x', ''],
  ['.x | *sort*', 'b,d,a'],
  ['a\u2013b', 'a'],
  ['bé', 'b'],
  ['c\u2212a', 'c'],
  ['a ) , b', 'a'],
]);

table('P7 parentheses', [
  ['(.x | .y', 'a,b,d,c'],
  ['(.y, .z) + .x', 'b,c,d,e'],
  ['()', ''],
  ['( )', ''],
  ['((a))', 'a'],
  ['(.x *limit:1*) | .z', 'a,d,e'],
  ['(.x .y) | .z', 'a,b,d'],
  ['(((.x', 'a,b,d'],
]);

table('P9/P10 commas and de-duplication', [
  [',.x', 'a,b,d'],
  ['.x,', 'a,b,d'],
  [',,.x,,', 'a,b,d'],
  [', , ,', ''],
  ['.z, .x', 'd,e,a,b'],
  ['a, a, a', 'a'],
  ['.y, .x, .z', 'b,c,a,d,e'],
]);

describe('P8 depth limit 32', () => {
  const nest = (depth: number, inner: string): string =>
    `${'('.repeat(depth)}${inner}${')'.repeat(depth)}`;
  it.each<Row>([
    [nest(32, 'a'), 'a'],
    [nest(33, 'a'), ''],
    [`a | ${nest(33, 'b')}`, 'a'],
    [`${nest(33, 'b')} | a`, ''],
    [`${nest(33, 'b')}, a`, ''],
    [`a, ${nest(33, 'b')}, c`, 'a'],
    [`a, ${nest(32, 'b')}, c`, 'a,b,c'],
    [`.x - ${nest(33, 'b')}`, 'a,b,d'],
    [`.x + ${nest(33, 'b')}`, ''],
    [`(a | ${nest(32, 'b')}) | c`, 'a'],
    [
      Array.from({ length: 100 }, (_, i) => `(${'abcde'[i % 5]})`).join(' | '),
      'a,b,c,d,e',
    ],
  ])('%j → %j', (expression, expected) => {
    expect(ids(example, expression)).toBe(expected);
  });
});

describe('token limit (§1, §11)', () => {
  it('1024 tokens resolve, 1025 give ∅ for the whole expression', () => {
    const within = `a${' | b'.repeat(511)} c`; // 1 + 2·511 + 1 = 1024 tokens
    const over = `a${' | b'.repeat(511)} c d`;
    expect(ids(example, within)).toBe('a,b');
    expect(ids(example, over)).toBe('');
  });
  it('counts tokens after macro expansion', () => {
    const config = prepareConfig(
      configOf({ a: {} }, { macros: { t: { linkItems: 'a '.repeat(1020) } } }),
    );
    expect(ids(config, '@t')).toBe('a');
    expect(ids(config, '@t, a, a')).toBe('a'); // 1020 + 4 = 1024 tokens
    expect(ids(config, '@t, a, a,')).toBe(''); // 1025 tokens
  });
  it('does not limit the length of an expression without tokens', () => {
    expect(ids(example, `${' '.repeat(100_000)}a${'!'.repeat(100_000)}`)).toBe(
      'a',
    );
  });
});

describe('result order (§7)', () => {
  const config = prepareConfig(
    configOf({
      b2: { tags: ['t'] },
      10: { tags: ['t'] },
      9: { tags: ['t'] },
      '007': { tags: ['t'] },
      '-1': { tags: ['t'] },
      4294967294: { tags: ['t'] },
      4294967295: { tags: ['t'] },
    }),
  );
  it('integer-like ids first in numeric order, then stored order', () => {
    expect(config.ids).toEqual([
      '9',
      '10',
      '4294967294',
      'b2',
      '007',
      '4294967295',
    ]);
    expect(ids(config, '.t')).toBe('9,10,4294967294,b2,007,4294967295');
  });
  it('operators keep operand order regardless of catalog order', () => {
    expect(ids(config, 'b2 | 9 | 007')).toBe('b2,9,007');
    expect(ids(config, '(b2 | 9) + .t')).toBe('b2,9');
  });
  it('a 100k-link config answers tag queries from the index', () => {
    const links: Record<string, Record<string, unknown>> = {};
    for (let i = 0; i < 100_000; i++)
      links[`l${i}`] = { tags: i % 40_000 === 7 ? ['rare'] : ['common'] };
    const big = prepareConfig(configOf(links));
    expect(ids(big, '.rare')).toBe('l7,l40007,l80007');
    expect(ids(big, '.rare + l40007')).toBe('l40007');
    expect(ids(big, '.common - .common')).toBe('');
  }, 60_000); // Preparing 100k links takes seconds on a loaded machine.
});

describe('object-member names (§5)', () => {
  const config = prepareConfig(
    configOf({
      toString: { tags: ['constructor'] },
      valueOf: { tags: ['__proto__'] },
      plain: { tags: ['hasOwnProperty'] },
    }),
  );
  it.each<Row>([
    ['toString', 'toString'],
    ['valueOf', 'valueOf'],
    ['hasOwnProperty', ''],
    ['constructor', ''],
    ['.constructor', 'toString'],
    ['.__proto__', 'valueOf'],
    ['.hasOwnProperty', 'plain'],
    ['.toString', ''],
  ])('%j → %j', (expression, expected) => {
    expect(ids(config, expression)).toBe(expected);
  });
});
