import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { prepareConfig } from './prepare.js';
import { resolve } from './resolve.js';
import { sanitizeUrl } from './sanitize-url.js';
import { NOW } from './test-catalog.js';
import type { PreparedConfig } from './types.js';

const ID_POOL = ['a', 'b', 'c', 'd', 'e', '7', '10', 'toString', 'x_1', 'ü'];
const TAG_POOL = ['x', 'y', 'z', 'Y', 'w-1', 'constructor'];

/** Random small configs over a fixed id and tag vocabulary, with macros and patterns. */
const configArb = fc.record({
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

const atomArb = fc.oneof(
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
const refinerArb = fc.constantFrom(
  '*sort*',
  '*sort:id*',
  '*reverse*',
  '*limit:2*',
  '*skip:1*',
  '*unique*',
  '*unique:label*',
  '*nope*',
);
const opArb = fc.constantFrom(' + ', ' | ', ' - ');

/** Well-formed-ish expressions from every token kind, plus hostile material. */
const expressionArb: fc.Arbitrary<string> = fc.letrec<{
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

const hostileArb = fc.oneof(
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

function checkInvariants(
  prepared: PreparedConfig,
  expression: string,
): string[] {
  const options = { now: NOW };
  const first = resolve(prepared, expression, options).map((link) => link.id);
  const second = resolve(prepared, expression, options).map((link) => link.id);
  expect(second).toEqual(first);
  expect(new Set(first).size).toBe(first.length);
  for (const id of first) expect(prepared.links.has(id)).toBe(true);
  return first;
}

describe('properties (§19)', () => {
  it('random text never throws and returns distinct catalog ids, deterministically', () => {
    fc.assert(
      fc.property(
        configArb,
        fc.string({ unit: 'binary', maxLength: 200 }),
        (config, text) => {
          checkInvariants(prepareConfig(config), text);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('generated and hostile expressions never throw and return distinct catalog ids', () => {
    fc.assert(
      fc.property(configArb, hostileArb, (config, expression) => {
        checkInvariants(prepareConfig(config), expression);
      }),
      { numRuns: 500 },
    );
  });

  // Operands must tokenize as one atom: no non-ASCII id, no hyphenated tag.
  const ids = ID_POOL.filter((id) => /^\w+$/.test(id));
  const tags = TAG_POOL.filter((tag) => /^\w+$/.test(tag));
  const operandArb = fc.oneof(
    fc.constantFrom(...ids),
    fc.constantFrom(...tags).map((t) => `.${t}`),
    fc
      .tuple(fc.constantFrom(...tags), opArb, fc.constantFrom(...ids))
      .map(([t, op, id]) => `(.${t}${op}${id})`),
  );
  const resolveIds = (prepared: PreparedConfig, expression: string): string[] =>
    resolve(prepared, expression, { now: NOW }).map((link) => link.id);

  it('set laws for id and tag operands (§4)', () => {
    fc.assert(
      fc.property(configArb, operandArb, operandArb, (config, a, b) => {
        const prepared = prepareConfig(config);
        const left = resolveIds(prepared, a);
        const right = resolveIds(prepared, b);
        const union = resolveIds(prepared, `${a} | ${b}`);
        expect(union.slice(0, left.length)).toEqual(left);
        expect(new Set(union)).toEqual(new Set([...left, ...right]));
        expect(resolveIds(prepared, `${a} - ${a}`)).toEqual([]);
        const both = resolveIds(prepared, `${a} + ${b}`);
        const minus = resolveIds(prepared, `${a} - ${b}`);
        expect(both).toEqual(left.filter((id) => right.includes(id)));
        expect(minus).toEqual(left.filter((id) => !right.includes(id)));
        expect(resolveIds(prepared, `${a}, ${a}`)).toEqual(left);
      }),
      { numRuns: 300 },
    );
  });

  it('left-to-right operator chains match a naive model, call after call (§4 P1)', () => {
    const chainArb = fc.array(
      fc.tuple(fc.constantFrom('+', '|', '-'), operandArb),
      { maxLength: 12 },
    );
    fc.assert(
      fc.property(
        configArb,
        operandArb,
        fc.array(chainArb, { minLength: 1, maxLength: 4 }),
        (config, first, chains) => {
          const prepared = prepareConfig(config);
          for (const chain of chains) {
            let model = resolveIds(prepared, first);
            for (const [op, operand] of chain) {
              const right = resolveIds(prepared, operand);
              if (op === '+') model = model.filter((id) => right.includes(id));
              else if (op === '-')
                model = model.filter((id) => !right.includes(id));
              else
                model = [
                  ...model,
                  ...right.filter((id) => !model.includes(id)),
                ];
            }
            const expression = [
              first,
              ...chain.map(([op, o]) => `${op} ${o}`),
            ].join(' ');
            expect(resolveIds(prepared, expression)).toEqual(model);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  const controlArb = fc
    .integer({ min: 0, max: 0x20 })
    .map((c) => String.fromCharCode(c === 0x20 ? 0x7f : c));
  const spaceArb = fc.constantFrom(
    ...' \t\n\v\f\r\u00a0\u1680\u2000\u2005\u200a\u2028\u2029\u202f\u205f\u3000\ufeff',
  );

  it('blocked schemes never survive sanitization, whatever the case, whitespace and control characters (§15)', () => {
    const noisyScheme = fc
      .tuple(
        fc.constantFrom('javascript', 'data', 'vbscript', 'blob'),
        fc.array(fc.boolean(), { minLength: 10, maxLength: 10 }),
        fc.array(fc.option(controlArb, { nil: '' }), {
          minLength: 11,
          maxLength: 11,
        }),
      )
      .map(([scheme, upper, noise]) =>
        [...scheme]
          .map(
            (ch, i) => `${noise[i] ?? ''}${upper[i] ? ch.toUpperCase() : ch}`,
          )
          .join(''),
      );
    fc.assert(
      fc.property(
        fc.tuple(
          fc.array(fc.oneof(spaceArb, controlArb), { maxLength: 4 }),
          noisyScheme,
          fc.array(fc.oneof(spaceArb, controlArb), { maxLength: 3 }),
          fc.string({ maxLength: 20 }),
        ),
        ([lead, scheme, beforeColon, tail]) => {
          const url = `${lead.join('')}${scheme}${beforeColon.join('')}:${tail}`;
          expect(sanitizeUrl(url)).toBe('about:blank');
        },
      ),
      { numRuns: 500 },
    );
  });

  it('sanitization returns the input or about:blank, idempotently', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (url) => {
        const clean = sanitizeUrl(url);
        expect([url, 'about:blank']).toContain(clean);
        expect(sanitizeUrl(clean)).toBe(clean);
      }),
    );
  });
});
