import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeExpression, resolveWithAnalysis } from './analyze.js';
import { engineCache } from '../engine-cache.js';
import { Evaluator } from '../evaluate/evaluate.js';
import { MAX_TOKENS, tokenizeWithSpans } from '../syntax/lexer.js';
import { prepareConfig } from '../prepare/prepare.js';
import { resolve } from '../evaluate/resolve.js';
import { configArb, hostileArb } from '../test-arbitraries.js';
import { isWhitespace, trimWhitespace } from '../syntax/whitespace.js';
import { DAY, HOUR, NOW } from '../test-catalog.js';

const ids = (
  prepared: ReturnType<typeof prepareConfig>,
  expression: string,
  now: number,
): string[] =>
  resolve(prepared, expression, { now, random: () => 0.5 }).map(
    (link) => link.id,
  );

/** Whole-millisecond stamps within ±10 days of NOW, many on hour edges so windows meet them exactly. */
const stampArb = fc.oneof(
  fc.integer({ min: -240, max: 240 }).map((h) => NOW + h * HOUR),
  fc.integer({ min: NOW - 10 * DAY, max: NOW + 10 * DAY }),
);

/** Configs whose links carry `createdAt` and `meta.timestamp` in every accepted form. */
const datedConfigArb = fc.record({
  allLinks: fc.dictionary(
    fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'),
    fc.record(
      {
        url: fc.constant('https://h.example'),
        tags: fc.subarray(['x', 'y']),
        createdAt: fc.oneof(
          stampArb,
          stampArb.map((ms) => new Date(ms).toISOString()),
          fc.constant(null),
        ),
        meta: fc.record(
          {
            timestamp: fc.oneof(
              stampArb,
              stampArb.map((ms) => new Date(ms).toISOString()),
              fc.constant(0),
              fc.constant('soon'),
            ),
          },
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: ['url'] },
    ),
  ),
  searchPatterns: fc.record({
    aged: fc.record({
      pattern: fc.constantFrom('^[a-d]$', '.'),
      options: fc.record({
        age: fc.constantFrom('1h', '5h', '1d', '3d', '1w', '0d', 'bad'),
        fields: fc.constant('k'),
        sort: fc.constantFrom('newest', 'oldest', 'alpha'),
        limit: fc.constantFrom(2, null),
      }),
    }),
  }),
  macros: fc.constant({
    t: { linkItems: ':time:1d:' },
    w: { linkItems: '(:time:3h:9h: | .x)' },
  }),
});

/** Expressions over time-dependent atoms, combined with operators, groups, commas and refiners. */
const timeAtomArb = fc.oneof(
  fc.constantFrom('a', 'b', '.x', '.y', '/aged/', '@t', '@w'),
  fc
    .tuple(fc.integer({ min: 1, max: 240 }), fc.constantFrom('h', 'd', 'w'))
    .map(([n, unit]) => `:time:${n}${unit}:`),
  fc
    .tuple(fc.integer({ min: 1, max: 48 }), fc.integer({ min: 1, max: 300 }))
    .map(([near, far]) => `:time:${near}h:${far}h:`),
  fc.constantFrom(
    ':time:today:',
    ':time:2024-06-14:',
    ':time:2024-06-10:2024-06-16:',
  ),
);
const timeExpressionArb = fc
  .array(
    fc.tuple(
      fc.constantFrom(' | ', ' + ', ' - ', ', '),
      timeAtomArb,
      fc.boolean(),
    ),
    { minLength: 1, maxLength: 5 },
  )
  .map((parts) =>
    parts
      .map(
        ([op, atom, group], i) =>
          `${i === 0 ? '' : op}${group ? `(${atom})` : atom}`,
      )
      .join(''),
  )
  .chain((base) =>
    fc
      .constantFrom('', ' *sort:id*', ' *limit:2*', ' *reverse*')
      .map((refiner) => `${base}${refiner}`),
  );

// Generous: hundreds of runs each, on a machine that may be busy. The runner still ends a hang.
describe('analysis properties', { timeout: 30_000 }, () => {
  it('resolving at any t in [now, validUntil) gives the same ids as at now', () => {
    fc.assert(
      fc.property(
        datedConfigArb,
        timeExpressionArb,
        fc.record({
          shift: fc.integer({ min: -3 * DAY, max: 3 * DAY }),
          fractions: fc.array(
            fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
            { minLength: 1, maxLength: 6 },
          ),
        }),
        (config, expression, { shift, fractions }) => {
          const prepared = prepareConfig(config);
          const now = NOW + shift;
          const { validUntil } = analyzeExpression(prepared, expression, {
            now,
          });
          expect(validUntil).toBeGreaterThanOrEqual(now);
          const horizon = Math.min(validUntil, now + 30 * DAY);
          const expected = ids(prepared, expression, now);
          const times = fractions.map(
            (f) => now + Math.floor(f * (horizon - now)),
          );
          if (validUntil < Infinity && validUntil > now)
            times.push(validUntil - 1);
          for (const t of times) {
            expect(ids(prepared, expression, t)).toEqual(expected);
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('analysis never throws, never changes a result, and resolveWithAnalysis answers like resolve', () => {
    fc.assert(
      fc.property(configArb, hostileArb, (config, expression) => {
        const prepared = prepareConfig(config);
        const before = resolve(prepared, expression, { now: NOW });
        const analysis = analyzeExpression(prepared, expression, { now: NOW });
        expect(resolve(prepared, expression, { now: NOW })).toEqual(before);
        const both = resolveWithAnalysis(prepared, expression, { now: NOW });
        expect(both.results).toEqual(before);
        expect(both.analysis).toEqual(analysis);
        // Analyzing a fresh copy first changes nothing either.
        const fresh = prepareConfig(config);
        analyzeExpression(fresh, expression, { now: NOW });
        expect(resolve(fresh, expression, { now: NOW })).toEqual(before);
      }),
      { numRuns: 400 },
    );
  });

  it('diagnostics lie inside the text, in order, with a known severity', () => {
    fc.assert(
      fc.property(
        configArb,
        fc.oneof(hostileArb, fc.string({ unit: 'binary', maxLength: 80 })),
        fc.constantFrom('', '  ', '\u00a0'),
        (config, expression, pad) => {
          const text = `${pad}${expression}${pad}`;
          const { diagnostics } = analyzeExpression(
            prepareConfig(config),
            text,
            {
              now: NOW,
            },
          );
          let last = 0;
          for (const d of diagnostics) {
            if (d.code === 'too-many-diagnostics') continue;
            expect(d.start).toBeGreaterThanOrEqual(last);
            expect(d.end).toBeGreaterThanOrEqual(d.start);
            expect(d.end).toBeLessThanOrEqual(text.length);
            expect(['error', 'warning', 'info']).toContain(d.severity);
            expect(d.message.length).toBeGreaterThan(0);
            last = d.start;
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('parsing stops exactly where the evaluator stops (P6)', () => {
    const noMacros = configArb.map((config) => ({ ...config, macros: {} }));
    fc.assert(
      fc.property(
        noMacros,
        hostileArb,
        fc.constantFrom('', ' '),
        (config, expression, pad) => {
          fc.pre(!expression.includes('@'));
          const text = `${pad}${expression}`;
          const prepared = prepareConfig(config);
          const stop = analyzeExpression(prepared, text, {
            now: NOW,
          }).diagnostics.find((d) => d.code === 'parsing-stops');
          // The evaluator reads the trimmed text (trailing spaces can change an unclosed token).
          let offset = 0;
          while (isWhitespace(text.charCodeAt(offset))) offset++;
          const { tokens, starts } = tokenizeWithSpans(trimWhitespace(text));
          const evaluator = new Evaluator(tokens, {
            prepared,
            now: NOW,
            random: () => 0.5,
            handlers: new Map(),
            builtinProtocols: true,
            cache: engineCache(prepared),
            protocolMemo: new Map(),
          });
          evaluator.parseQuery();
          const expected =
            tokens.length > MAX_TOKENS || evaluator.consumed >= tokens.length
              ? undefined
              : (starts[evaluator.consumed] ?? 0) + offset;
          expect(stop?.start).toBe(expected);
          if (stop !== undefined) {
            // And what follows really is ignored: any other stopping token there gives the same result.
            // (Cutting the text at the stop would not: `.x + )` applies `+` to ∅, `.x +` ignores it, P4.)
            expect(ids(prepared, `${text.slice(0, stop.start)})`, NOW)).toEqual(
              ids(prepared, text, NOW),
            );
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
