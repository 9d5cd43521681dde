/**
 * Macro expansion (docs/expression-reference.md §3). Section numbers (§) and rule ids (P, D) in the test
 * names are that document's.
 */
import { describe, expect, it } from 'vitest';
import { MAX_EXPANDED_LENGTH, expandMacros } from './macros.js';
import { prepareConfig } from '../prepare/prepare.js';
import { configOf, example, exampleConfig, ids } from '../test-catalog.js';

const macros = (entries: Record<string, string>): Map<string, string> =>
  new Map(Object.entries(entries));

describe('macro expansion text (§3)', () => {
  it.each<[string, Record<string, string>, string]>([
    ['@m', { m: '.x | .y' }, '.x | .y'],
    ['@m + .z', { m: '.x | .y' }, '.x | .y + .z'],
    ['@', {}, ''],
    ['@@', {}, ''],
    ['a @ b', {}, 'a  b'],
    ['@nope', {}, ''],
    ['@M', { m: 'a' }, ''],
    [':time:@win:', { win: '3d' }, ':time:3d:'],
    ['/@k/', { k: 'key' }, '/key/'],
    ['*limit:@n*', { n: '2' }, '*limit:2*'],
    ['@m-.y', { m: 'a' }, 'a-.y'],
    ['@e.x', { e: '' }, '.x'],
    ['@a', { a: '@b', b: '@c', c: 'done' }, 'done'],
    ['@self', { self: '@self' }, '@self'],
    ['@p', { p: '@q', q: '@p' }, '@p'],
    ['@q', { p: '@q', q: '@p' }, '@q'],
    ['x@a', { a: 'y' }, 'xy'],
  ])('%j with %j → %j', (text, defs, expected) => {
    expect(expandMacros(text, macros(defs))).toBe(expected);
  });

  it('does not rescan inserted text within a round', () => {
    // Round 1 gives "@b", round 2 gives "B": two rounds, both counted.
    const chain: Record<string, string> = {};
    for (let i = 0; i < 10; i++) chain[`m${i}`] = `@m${i + 1}`;
    chain['m10'] = 'end';
    expect(expandMacros('@m0', macros(chain))).toBe('@m10');
    expect(expandMacros('@m1', macros(chain))).toBe('end');
  });

  it('stops at 64 KiB of expanded text (D2)', () => {
    const big = 'a'.repeat(MAX_EXPANDED_LENGTH);
    expect(expandMacros('@big', macros({ big }))).toBe(big);
    expect(expandMacros('@big ', macros({ big }))).toBeNull();
    expect(expandMacros('x@big', macros({ big }))).toBeNull();
  });

  it('stops at 1025 tokens (D2)', () => {
    expect(expandMacros('@t', macros({ t: 'a '.repeat(1024) }))).not.toBeNull();
    expect(expandMacros('@t', macros({ t: 'a '.repeat(1025) }))).toBeNull();
  });

  it('ends exponential fan-out as null', () => {
    const fan = macros({ f: '@f @f @f @f @f @f' });
    expect(expandMacros('@f', fan)).toBeNull();
    expect(expandMacros('@f', macros({ f: '@f | @f' }))).toBeNull();
  });
});

describe('macros in resolution (§3)', () => {
  const cyclic = prepareConfig({
    ...configOf({ p: { tags: ['t'] }, q: {}, self: {} }),
    macros: {
      p: { linkItems: '@q' },
      q: { linkItems: '@p' },
      self: { linkItems: '@self' },
      f: { linkItems: '@f | @f' },
      e: { linkItems: '' },
      win: { linkItems: '3d' },
    },
  });

  it.each<[string, string]>([
    ['@m + .z', 'd'],
    ['.z + @m', 'd,b,c'],
    ['@pair + .z', 'a'],
    ['.x @top', 'b,d'],
    ['.x + @nope', 'a,b,d'],
    ['@m-.y', 'a,d'],
    ['@m', 'a,b,d,c'],
    ['@', ''],
    ['@nope', ''],
    ['@nope a', 'a'],
    ['@M', ''],
  ])('example catalog: %j → %j', (expression, expected) => {
    expect(ids(example, expression)).toBe(expected);
  });

  it.each<[string, string]>([
    ['@p', 'p'],
    ['@q', 'q'],
    ['@self', 'self'],
    ['@f', ''],
    ['@f, p', ''],
    ['@e', ''],
    ['@e q', 'q'],
  ])('cycles and limits: %j → %j', (expression, expected) => {
    expect(ids(cyclic, expression)).toBe(expected);
  });

  it('drops macros with "-" in the name (§13)', () => {
    const config = exampleConfig();
    config['macros'] = { 'my-m': { linkItems: '.x' } };
    expect(ids(prepareConfig(config), '@my-m')).toBe('');
  });
});
