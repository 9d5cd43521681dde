import { describe, expect, it } from 'vitest';
import { EXPRESSION_DIAGNOSTIC_CODES } from '../../schemas/index.js';
import type { ExpressionDiagnosticCode } from '../../schemas/index.js';
import { analyzeExpression, resolveWithAnalysis } from './analyze.js';
import { prepareConfig } from '../prepare/prepare.js';
import { resolve } from '../evaluate/resolve.js';
import { DAY, HOUR, NOW, configOf } from '../test-catalog.js';
import type { FilterProtocolHandler } from '../types.js';

const iso = (ms: number): string => new Date(ms).toISOString();

/** Links `a`…`d` with tags, dates and a location; names, macros and patterns for every diagnostic. */
const config = prepareConfig(
  configOf(
    {
      a: { tags: ['x'], createdAt: NOW - DAY },
      b: { tags: ['x', 'y'], createdAt: iso(NOW - 4 * DAY) },
      c: { tags: ['y'], meta: { location: [10, 20] } },
      d: { tags: ['big-apple', 'z'], createdAt: NOW + 30 * DAY },
      'new-york': {},
    },
    {
      macros: {
        m: { linkItems: '.x | .y' },
        bad: { linkItems: '.x + @nope' },
        deep: { linkItems: 'a, @bad' },
        p: { linkItems: '@q' },
        q: { linkItems: '@p' },
        f: { linkItems: '@f @f @f' },
        big: { linkItems: 'x'.repeat(40_000) },
        t: { linkItems: ':time:1d:' },
        gone: { linkItems: '@nope' },
      },
      searchPatterns: {
        k: 'a',
        aged: { pattern: '^[ab]$', options: { age: '3d', fields: 'k' } },
        unsafe: '(a+)+',
        look: '(?=a)a',
        broken: '(',
        'new-york': 'x',
      },
      protocols: { web: { url: 'https://x' } },
    },
  ),
);

const analyze = (expression: string, options = {}) =>
  analyzeExpression(config, expression, { now: NOW, ...options });

/** Rows: expression, expected code, the text its span covers, and which occurrence of that text. */
const DIAGNOSTICS: readonly (readonly [
  expression: string,
  code: ExpressionDiagnosticCode,
  spanText: string,
  occurrence?: 'last',
])[] = [
  [' \t ', 'empty-expression', ' \t '],
  ['@gone', 'empty-expression', '@gone'],
  ['@nope | a', 'unknown-macro', '@nope'],
  ['a | @', 'unknown-macro', '@'],
  ['@deep', 'unknown-macro', '@deep'],
  ['@p', 'macro-cycle', '@p'],
  ['a | @big | @big', 'expansion-too-long', '@big', 'last'],
  ['@f', 'token-limit', '@f'],
  [`${'a '.repeat(1024)}b c`, 'token-limit', 'b c'],
  ['bé', 'ignored-character', 'é'],
  ['a\u2013b', 'ignored-character', '\u2013'],
  ['a | . b', 'ignored-character', '.'],
  ['a // b', 'ignored-character', '//'],
  ['zz', 'unknown-id', 'zz'],
  ['.nope', 'unknown-tag', '.nope'],
  ['.big-apple', 'hyphenated-name', '.big-apple'],
  ['new-york', 'hyphenated-name', 'new-york'],
  ['a | x-y-z', 'hyphenated-name', 'x-y-z'],
  ['#q', 'placeholder', '#q'],
  ['/nope/', 'unknown-search-pattern', '/nope/'],
  ['/ k /', 'unknown-search-pattern', '/ k /'],
  ['a | /nope | b', 'unknown-search-pattern', '/nope | b'],
  ['/unsafe/', 'unsafe-search-pattern', '/unsafe/'],
  ['/look/', 'unsafe-search-pattern', '/look/'],
  ['/broken/', 'unsafe-search-pattern', '/broken/'],
  ['/new-york/', 'unsafe-search-pattern', '/new-york/'],
  ['/k/, /k/, /k/, /k/, /k/, /k/', 'search-pattern-limit', '/k/', 'last'],
  [':nope:', 'unknown-protocol', ':nope:'],
  [':web:', 'unknown-protocol', ':web:'],
  [':time:3m:', 'invalid-protocol-arguments', ':time:3m:'],
  [':time:9d:3d:', 'invalid-protocol-arguments', ':time:9d:3d:'],
  [
    ':location:radius:10,20:',
    'invalid-protocol-arguments',
    ':location:radius:10,20:',
  ],
  ['a *srot*', 'unknown-refiner', '*srot*'],
  ['a * sort *', 'unknown-refiner', '* sort *'],
  ['a *limit:x*', 'invalid-refiner-argument', '*limit:x*'],
  ['a *limit:-1*', 'invalid-refiner-argument', '*limit:-1*'],
  ['a *sort:rank*', 'invalid-refiner-argument', '*sort:rank*'],
  ['*sort* a', 'misplaced-refiner', '*sort*'],
  ['a, *sort*', 'misplaced-refiner', '*sort*'],
  [`a${' *reverse*'.repeat(11)}`, 'refiner-limit', '*reverse*', 'last'],
  ['()', 'empty-parentheses', '()'],
  ['a | ( )', 'empty-parentheses', '( )'],
  ['(a', 'unclosed-parenthesis', '('],
  ['(((', 'unclosed-parenthesis', '('],
  ['a | (((', 'empty-parentheses', '(', 'last'],
  [`a | ${'('.repeat(33)}b`, 'depth-limit', '(b', 'last'],
  ['a +', 'trailing-operator', '+'],
  ['a + )', 'missing-operand', '+'],
  ['a - , b', 'missing-operand', '-'],
  ['a + | b', 'doubled-operator', '+ |'],
  ['- a', 'leading-operator', '-'],
  ['a b', 'parsing-stops', 'b'],
  ['a *limit:1* | b', 'parsing-stops', '| b'],
  ['(a, b) + c', 'parsing-stops', ') + c'],
  ['a )', 'parsing-stops', ')'],
  [`${'zz | '.repeat(120)}zz`, 'too-many-diagnostics', ''],
];

/** Where a row's span text sits in its expression. */
function expectedSpan(
  expression: string,
  spanText: string,
  occurrence?: 'last',
): [number, number] {
  const start =
    occurrence === 'last'
      ? expression.lastIndexOf(spanText)
      : expression.indexOf(spanText);
  return [start, start + spanText.length];
}

describe('analyzeExpression diagnostics (issue 11 item 4)', () => {
  it.each(
    DIAGNOSTICS.map(([expression, code, spanText, occurrence]) => ({
      shown: JSON.stringify(
        expression.length > 40 ? `${expression.slice(0, 37)}...` : expression,
      ),
      expression,
      code,
      spanText,
      occurrence,
    })),
  )('$code for $shown', ({ expression, code, spanText, occurrence }) => {
    const found = analyze(expression).diagnostics.filter(
      (d) => d.code === code,
    );
    expect(found.length).toBeGreaterThan(0);
    if (code === 'too-many-diagnostics') return;
    const [start, end] = expectedSpan(expression, spanText, occurrence);
    expect(found.map((d) => [d.start, d.end])).toContainEqual([start, end]);
  });

  it('covers every expression diagnostic code', () => {
    const covered = new Set(DIAGNOSTICS.map(([, code]) => code));
    expect([...EXPRESSION_DIAGNOSTIC_CODES].sort()).toEqual(
      [...covered].sort(),
    );
  });

  it.each([
    '.x | .y',
    'a, b',
    '@m + .y',
    '/k/',
    '/aged/ *sort:id* *limit:1*',
    ':time:3d:',
    ':location:radius:10,20:5km:',
    '(a | b) - .y',
    'a *unique:url*',
    '.x-a',
    'a-b-c',
  ])('reports nothing for the well-formed %j', (expression) => {
    expect(analyze(expression).diagnostics).toEqual([]);
  });

  it('gives each code one severity and a one-phrase message', () => {
    expect(analyze('a b').diagnostics[0]).toMatchObject({
      severity: 'error',
      code: 'parsing-stops',
    });
    expect(analyze('zz').diagnostics[0]).toMatchObject({
      severity: 'warning',
      message: 'no link has the id `zz`',
    });
    expect(analyze('#q').diagnostics[0]?.severity).toBe('info');
  });

  it('names the macro a problem comes from, pointing at the reference in the text', () => {
    const expression = 'c | @deep';
    const [unknown] = analyze(expression).diagnostics.filter(
      (d) => d.code === 'unknown-macro',
    );
    expect(unknown?.message).toBe(
      'unknown macro `@nope`: it is removed (in macro @deep → @bad)',
    );
    expect(expression.slice(unknown?.start, unknown?.end)).toBe('@deep');
  });

  it('says whether a hyphenated tag exists in the config', () => {
    const [known] = analyze('.big-apple').diagnostics;
    expect(known?.message).toContain('the tag `big-apple` contains `-`');
    const [unknown] = analyze('.red-apple').diagnostics;
    expect(unknown?.message).toContain(
      '`.red-apple` reads as `.red` without `apple`',
    );
  });

  it('reports nothing after the place where parsing stops', () => {
    const codes = analyze('a b | zz | .nope').diagnostics.map((d) => d.code);
    expect(codes).toEqual(['parsing-stops']);
  });

  it('orders diagnostics by position and keeps offsets inside the text', () => {
    const expression = '  zz | .nope | #q +  ';
    const { diagnostics } = analyze(expression);
    expect(diagnostics.map((d) => d.code)).toEqual([
      'unknown-id',
      'unknown-tag',
      'placeholder',
      'trailing-operator',
    ]);
    expect(diagnostics.map((d) => expression.slice(d.start, d.end))).toEqual([
      'zz',
      '.nope',
      '#q',
      '+',
    ]);
  });

  it('caps the list at 100, the last entry saying how many more there were', () => {
    const { diagnostics } = analyze(`${'zz | '.repeat(150)}zz`);
    expect(diagnostics).toHaveLength(100);
    expect(diagnostics.at(-1)?.message).toBe('52 more problems are not listed');
  });

  it('knows that protocols are turned off or handled', () => {
    expect(
      analyze(':time:3d:', { builtinProtocols: false }).diagnostics[0]?.code,
    ).toBe('unknown-protocol');
    const handlers = { web: () => true };
    expect(analyze(':web:', { handlers }).diagnostics).toEqual([]);
  });
});

describe('analyzeExpression dependencies (issue 9 item 2)', () => {
  const pick: FilterProtocolHandler = () => true;
  const ROWS: readonly (readonly [
    expression: string,
    expected: string,
    options?: Record<string, unknown>,
  ])[] = [
    ['.x | a', ''],
    [':time:3d:', 'clock :time:3d:'],
    [':time:today:', 'clock :time:today:'],
    [':time:1d:3d:', 'clock :time:1d:3d:'],
    ['/aged/', 'clock /aged/'],
    ['.x *shuffle*', 'random *shuffle*'],
    [':pick:', 'handler :pick:', { handlers: { pick } }],
    [':time:3d:', 'handler :time:3d:', { handlers: { time: pick } }],
    [':time:3d:', '', { builtinProtocols: false }],
    [':time:2024-01-01:', ''],
    [':time:2024-01-01:2024-02-01:', ''],
    [':time:9d:3d:', ''],
    [':time:3x:', ''],
    [':location:', ''],
    [':web:', ''],
    ['/k/', ''],
    ['/nope/', ''],
    ['a *limit:1* | :time:3d:', ''],
    ['/k/, /k/, /k/, /k/, /k/, /aged/', ''],
    [`${'('.repeat(33)}:time:3d:`, ''],
    [`a${' *sort*'.repeat(10)} *shuffle*`, ''],
    ['b, @t', 'clock @t'],
    ['.x *shuffle*, :time:1w:', 'random *shuffle*; clock :time:1w:'],
  ];

  it.each(
    ROWS.map(([expression, expected, options = {}]) => ({
      expression,
      expected,
      options,
    })),
  )(
    '$expression depends on "$expected"',
    ({ expression, expected, options }) => {
      const { dependencies } = analyze(expression, options);
      const shown = dependencies
        .map((d) => `${d.kind} ${expression.slice(d.start, d.end)}`)
        .join('; ');
      expect(shown).toBe(expected);
    },
  );

  it('gives validUntil = now when an answer may change on every call', () => {
    expect(analyze('.x *shuffle*').validUntil).toBe(NOW);
    expect(analyze(':pick:', { handlers: { pick } }).validUntil).toBe(NOW);
  });

  it('gives validUntil = Infinity when the answer depends on the config alone', () => {
    expect(analyze('.x | /k/ | :time:2024-01-01:').validUntil).toBe(Infinity);
  });
});

describe('analyzeExpression validUntil (exact bounds)', () => {
  const dated = prepareConfig(
    configOf(
      {
        a: { createdAt: NOW - DAY },
        b: { createdAt: iso(NOW - 4 * DAY) },
        c: {},
        d: { createdAt: NOW + 30 * DAY },
        e: { createdAt: NOW - 6 * HOUR, meta: { timestamp: 'not a date' } },
        f: { createdAt: NOW - HOUR, meta: { timestamp: NOW - 20 * DAY } },
      },
      {
        searchPatterns: {
          aged: { pattern: '^[ab]$', options: { age: '3d', fields: 'k' } },
        },
        macros: { t: { linkItems: ':time:3d:' } },
      },
    ),
  );
  // Rows: expression, bound, and whether the answer really changes right after the bound (the bound
  // may be early when an operator discards the change, which is safe).
  const ROWS: readonly (readonly [
    expression: string,
    until: number,
    tight: boolean,
  ])[] = [
    // `a` (1 day ago) leaves the 3-day window 2 days from now.
    [':time:3d:', NOW + 2 * DAY, true],
    // Through a macro, the same bound.
    ['@t', NOW + 2 * DAY, true],
    // `b` (4 days ago) leaves the week window 3 days from now.
    [':time:1w:', NOW + 3 * DAY, true],
    // `f` was created an hour ago, but `:time:` reads its meta.timestamp (20 days ago): only `d`
    // (dated in the future) is in a 2-hour window, and it leaves two hours after its date.
    [':time:2h:', NOW + 30 * DAY + 2 * HOUR, true],
    // The day starts again at the next UTC midnight (NOW is 12:00 UTC); `e` (06:00) then drops out.
    [':time:today:', NOW + 12 * HOUR, true],
    // `a` enters [now − 9d, now − 3d] 2 days from now, before `b` leaves it (5 days from now).
    [':time:3d:9d:', NOW + 2 * DAY, true],
    // `e` (6 hours ago) enters [now − 9d, now − 12h] in 6 hours.
    [':time:12h:9d:', NOW + 6 * HOUR, true],
    // The search age reads createdAt only: `a` leaves the 3-day age 2 days from now.
    ['/aged/', NOW + 2 * DAY, true],
    // The earliest bound wins, even when the union hides the change (`a` stays in the week window).
    [':time:1w: | :time:3d:', NOW + 2 * DAY, false],
    // Dates do not move.
    [':time:2024-06-01:', Infinity, false],
  ];

  const ids = (expression: string, now: number): string =>
    resolve(dated, expression, { now })
      .map((link) => link.id)
      .join(',');

  it.each(ROWS)('%j holds until %d', (expression, until, tight) => {
    const { validUntil } = analyzeExpression(dated, expression, { now: NOW });
    expect(validUntil).toBe(until);
    if (until === Infinity) return;
    expect(ids(expression, until - 1)).toBe(ids(expression, NOW));
    // Tight to the millisecond: another answer just after the bound.
    if (tight)
      expect(ids(expression, until + 1)).not.toBe(ids(expression, NOW));
  });
});

describe('resolveWithAnalysis', () => {
  it('returns the results of resolve and the analysis of analyzeExpression', () => {
    for (const expression of ['.x | .y *sort:id*', '@bad', 'a b', '@f']) {
      const both = resolveWithAnalysis(config, expression, { now: NOW });
      expect(both.results).toEqual(resolve(config, expression, { now: NOW }));
      expect(both.analysis).toEqual(analyze(expression));
    }
  });
});
