import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  NamePatterns,
  nameMatches,
  patternWithin,
  patternsWithin,
} from './name-patterns.js';

/** A small alphabet, so that random patterns and names meet often; `#` is kept out (see below). */
const letter = fc.constantFrom('a', 'b', '/', '-');
const nameArb = fc
  .array(letter, { maxLength: 12 })
  .map((chars) => chars.join(''));
const patternArb = fc
  .array(fc.oneof(letter, fc.constant('*')), { minLength: 1, maxLength: 10 })
  .map((chars) => chars.join(''));

/** The meaning of a pattern written independently: a regular expression, `*` as `.*`. */
function reference(pattern: string, name: string): boolean {
  const source = pattern
    .split('*')
    .map((piece) => piece.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`, 's').test(name);
}

describe('name patterns, as properties', () => {
  it('match exactly the names the regular expression of their meaning matches', () => {
    fc.assert(
      fc.property(patternArb, nameArb, (pattern, name) => {
        expect(nameMatches(pattern, name)).toBe(reference(pattern, name));
      }),
      { numRuns: 5000 },
    );
  });

  it('patternWithin is sound: a name the inner pattern matches, the outer one matches too', () => {
    fc.assert(
      fc.property(patternArb, patternArb, nameArb, (inner, outer, name) => {
        if (patternWithin(inner, outer) && nameMatches(inner, name)) {
          expect(nameMatches(outer, name)).toBe(true);
        }
      }),
      { numRuns: 5000 },
    );
  });

  it('patternWithin is complete: when it says no, a name matched by the inner pattern alone exists', () => {
    fc.assert(
      fc.property(patternArb, patternArb, (inner, outer) => {
        if (patternWithin(inner, outer)) return;
        // Each star of the inner pattern stands for a character the outer one never uses.
        const witness = inner.replaceAll('*', '#');
        expect(nameMatches(inner, witness)).toBe(true);
        expect(nameMatches(outer, witness)).toBe(false);
      }),
      { numRuns: 5000 },
    );
  });

  it('patternsWithin: each inner pattern within one outer pattern', () => {
    expect(patternsWithin(['site-a/menu', 'site-a/x/*'], ['site-a/*'])).toBe(
      true,
    );
    expect(patternsWithin(['site-a/*', 'docs'], ['site-a/*'])).toBe(false);
    expect(patternsWithin(['*'], ['site-a/*'])).toBe(false);
    expect(patternsWithin(['site-a/*'], ['*'])).toBe(true);
    expect(patternsWithin(['site-*'], ['site-a/*', 'site-b/*'])).toBe(false);
    expect(patternsWithin(['a*b*c'], ['a*c'])).toBe(true);
    expect(patternsWithin(['a*c'], ['a*b*c'])).toBe(false);
  });

  it('cost at most twice the lengths of name and pattern, whatever they hold', () => {
    fc.assert(
      fc.property(
        fc.array(patternArb, { minLength: 1, maxLength: 5 }),
        nameArb,
        (patterns, name) => {
          const set = new NamePatterns(patterns);
          set.matches(name);
          const bound = patterns.reduce(
            (sum, p) => sum + 2 * (name.length + p.length),
            0,
          );
          expect(set.comparisons).toBeLessThanOrEqual(bound);
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('the hostile key of issue 29, item 5', () => {
  it('matches 220 long names against 100 patterns of 250 `a`s in linear cost', () => {
    // `*` + 250 × `a` + `b<i>`: the old greedy matcher went back to the star after every near miss,
    // 31,628 steps per pattern and name here (696 million for the 22,000 pairs, seconds per request).
    const patterns = Array.from(
      { length: 100 },
      (_, i) => `*${'a'.repeat(250)}b${i}`,
    );
    const names = Array.from({ length: 220 }, (_, i) =>
      `${'a'.repeat(250)}c${i}`.slice(0, 256),
    );
    const set = new NamePatterns(patterns);
    for (const name of names) expect(set.matches(name)).toBe(false);
    // Per name and pattern at most twice their lengths together: ≤ 1,020 comparisons.
    expect(set.comparisons).toBeLessThanOrEqual(
      names.length * patterns.length * 2 * (256 + 254),
    );
  });
});
