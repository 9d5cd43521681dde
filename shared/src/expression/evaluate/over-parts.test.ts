import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveIdsWithAnalysis } from '../analyze/analyze.js';
import { mergePrepared } from '../prepare/merge-prepared.js';
import { prepareConfig } from '../prepare/prepare.js';
import {
  configArb,
  expressionArb,
  ID_POOL,
  opArb,
  refinerArb,
  TAG_POOL,
} from '../test-arbitraries.js';
import { NOW } from '../test-catalog.js';
import { overParts } from './over-parts.js';
import { toResolvedLinks } from './resolve.js';
import type { PreparedConfig } from '../types.js';

const OPTIONS = { now: NOW, random: () => 0.5, diagnostics: false };

/** Expressions of ids, tags, macros, operators, commas and refiners only: those `overParts` takes. */
const namedArb: fc.Arbitrary<string> = fc
  .array(
    fc.tuple(
      fc.oneof(
        fc.constantFrom(...ID_POOL, 'zz'),
        fc.constantFrom(...TAG_POOL).map((t) => `.${t}`),
        fc.constantFrom('@m', '@n', '@self', '@nope', '(.x', ')', '#q'),
      ),
      fc.oneof(opArb, fc.constantFrom(', ', ' ')),
    ),
    { minLength: 1, maxLength: 6 },
  )
  .chain((pairs) =>
    fc
      .array(refinerArb, { maxLength: 3 })
      .map((refiners) =>
        [...pairs.flat(), ...refiners.map((r) => ` ${r}`)].join(''),
      ),
  );

/** The answer (results, order, limit) and until when it holds, over `prepared`. */
function answer(prepared: PreparedConfig, expression: string) {
  const { ids, analysis } = resolveIdsWithAnalysis(
    prepared,
    expression,
    OPTIONS,
  );
  return {
    results: toResolvedLinks(prepared, ids),
    validUntil: analysis.validUntil,
  };
}

/** Checks `overParts` against the merge; returns whether it answered. */
function check(configs: readonly unknown[], expression: string): boolean {
  const parts = configs.map((c) => prepareConfig(c));
  const over = overParts(parts, expression);
  if (over === undefined) return false;
  expect(answer(over, expression)).toEqual(
    answer(mergePrepared(parts), expression),
  );
  return true;
}

describe('overParts', () => {
  it('answers as the merge does for configs with overlapping ids, macros and tags', () => {
    let answered = 0;
    fc.assert(
      fc.property(
        fc.array(configArb, { minLength: 2, maxLength: 4 }),
        fc.array(fc.oneof(namedArb, expressionArb), {
          minLength: 1,
          maxLength: 4,
        }),
        (configs, expressions) => {
          for (const expression of expressions) {
            if (check(configs, expression)) answered++;
          }
        },
      ),
      { numRuns: 400 },
    );
    // The property must not hold vacuously: most id-and-tag expressions are answered over the parts.
    expect(answered).toBeGreaterThan(400);
  }, 120_000);

  it('keeps the merge catalog: integer-like ids first, then first appearance, the last part deciding', () => {
    const parts = [
      prepareConfig({
        allLinks: {
          q: { url: 'q1', tags: ['t'] },
          p: { url: 'p1', tags: ['t'] },
        },
      }),
      prepareConfig({
        allLinks: {
          r: { url: 'r2', tags: ['t'] },
          p: { url: 'p2' },
          5: { url: '52', tags: ['t'] },
        },
        macros: { all: { linkItems: '.t | p' } },
      }),
    ];
    const over = overParts(parts, '@all');
    expect(over?.ids).toEqual(['5', 'q', 'p', 'r']);
    expect(answer(over!, '@all').results.map((r) => r.url)).toEqual([
      '52',
      'q1',
      'r2',
      'p2',
    ]);
    expect(answer(over!, '@all')).toEqual(answer(mergePrepared(parts), '@all'));
  });

  it('leaves search patterns, protocols and dropped links to the merge', () => {
    const ok = prepareConfig({
      allLinks: { a: { url: 'a' } },
      searchPatterns: { k: 'a' },
    });
    expect(overParts([ok, ok], 'a | .x')).toBeDefined();
    expect(overParts([ok, ok], '/k/ | a')).toBeUndefined();
    expect(overParts([ok, ok], 'a | :time:3d:')).toBeUndefined();
    const macro = prepareConfig({
      allLinks: {},
      macros: { s: { linkItems: '/k/' } },
    });
    expect(overParts([ok, macro], 'a, @s')).toBeUndefined();
    // A later link without a URL hides the earlier one: only the merge knows.
    const dropped = prepareConfig({ allLinks: { a: { label: 'no url' } } });
    expect(overParts([ok, dropped], 'a')).toBeUndefined();
    expect(mergePrepared([ok, dropped]).ids).toEqual([]);
  });
});
