import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveIds, toResolvedLinks } from '../evaluate/resolve.js';
import { configArb, expressionArb } from '../test-arbitraries.js';
import { NOW } from '../test-catalog.js';
import { mergeConfigs } from './merge.js';
import { decidingPart } from './merge-owner.js';
import { mergePrepared } from './merge-prepared.js';
import { prepareConfig } from './prepare.js';

type Config = Record<string, Record<string, unknown>>;

/** `own`'s sections laid over the keys of `earlier`'s merge: the last config holds every earlier key. */
function covering(earlier: readonly Config[], own: Config): Config {
  const merged = mergeConfigs(earlier) as Config;
  const out: Config = {};
  for (const section of ['allLinks', 'macros', 'searchPatterns']) {
    const base = merged[section] ?? {};
    const mine = own[section] ?? {};
    out[section] = { ...base, ...mine };
  }
  return out;
}

const OPTIONS = { now: NOW, random: () => 0.5 };

/** The answer over the merge, and over the deciding part when there is one. */
function answers(configs: readonly unknown[], expression: string) {
  const parts = configs.map((c) => prepareConfig(c));
  const merged = mergePrepared(parts);
  const part = decidingPart(parts);
  const expected = resolveIds(merged, expression, OPTIONS);
  const actual =
    part === undefined ? undefined : resolveIds(part, expression, OPTIONS);
  return {
    part,
    expected: toResolvedLinks(merged, expected),
    actual: actual === undefined ? undefined : toResolvedLinks(part!, actual),
  };
}

describe('decidingPart', () => {
  it('is the last part when it holds every earlier key, and answers as the merge does', () => {
    fc.assert(
      fc.property(
        fc.array(configArb, { minLength: 1, maxLength: 3 }),
        configArb,
        fc.array(expressionArb, { minLength: 1, maxLength: 4 }),
        (earlier, own, expressions) => {
          const configs = [...earlier, covering(earlier, own)];
          for (const expression of expressions) {
            const { part, expected, actual } = answers(configs, expression);
            expect(part).toBeDefined();
            expect(actual).toEqual(expected);
          }
        },
      ),
      { numRuns: 200 },
    );
  }, 60_000);

  it('answers as the merge does whenever it names a part, for any configs', () => {
    fc.assert(
      fc.property(
        fc.array(configArb, { minLength: 1, maxLength: 4 }),
        expressionArb,
        (configs, expression) => {
          const { part, expected, actual } = answers(configs, expression);
          if (part !== undefined) expect(actual).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  }, 60_000);

  it('needs the merge when the first appearance orders the catalog differently', () => {
    const parts = [
      prepareConfig({ allLinks: { b: { url: 'b' }, a: { url: 'a' } } }),
      prepareConfig({ allLinks: { a: { url: 'A' }, b: { url: 'B' } } }),
    ];
    expect(decidingPart(parts)).toBeUndefined();
    expect(mergePrepared(parts).ids).toEqual(['b', 'a']);
  });

  it('needs the merge when an earlier part holds a key the last one lacks', () => {
    const link = { url: 'u' };
    expect(
      decidingPart([
        prepareConfig({ allLinks: { a: link }, macros: { m: {} } }),
        prepareConfig({ allLinks: { a: link } }),
      ]),
    ).toBeUndefined();
    expect(
      decidingPart([
        prepareConfig({ allLinks: { a: link, z: link } }),
        prepareConfig({ allLinks: { a: link } }),
      ]),
    ).toBeUndefined();
    // The last part holds `a` but drops it (no URL): the merge drops it too, but the catalog is built.
    expect(
      decidingPart([
        prepareConfig({ allLinks: { a: link } }),
        prepareConfig({ allLinks: { a: { label: 'no url' } } }),
      ]),
    ).toBeUndefined();
  });

  it('accepts integer-like ids in any stored order and keys the last part adds', () => {
    const link = { url: 'u' };
    const last = prepareConfig({
      allLinks: { 10: link, 7: link, x: link, y: link, z: link },
      macros: { m: { linkItems: 'x' }, n: { linkItems: 'y' } },
    });
    const parts = [
      prepareConfig({ allLinks: { x: link, 10: link }, macros: { n: {} } }),
      prepareConfig({ allLinks: { 7: link, x: link, y: link } }),
      last,
    ];
    expect(decidingPart(parts)).toBe(last);
  });
});
