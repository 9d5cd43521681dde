/**
 * Merging configs (docs/expression-reference.md §14). Section numbers (§) and rule ids (P, D) in the test
 * names are that document's.
 */
import { describe, expect, it } from 'vitest';
import { overlayConfigs } from './overlay.js';
import { prepareConfig } from './prepare.js';
import { ids } from '../test-catalog.js';

describe('merging configs (§14)', () => {
  it('keeps first positions with last-wins values, integer-like ids first', () => {
    const merged = overlayConfigs([
      { allLinks: { p: { url: 'p1', label: 'one' }, q: { url: 'q' } } },
      { allLinks: { r: { url: 'r' }, p: { url: 'p2' }, 5: { url: 'five' } } },
    ]);
    const prepared = prepareConfig(merged);
    expect(prepared.ids).toEqual(['5', 'p', 'q', 'r']);
    expect(prepared.links.get('p')).toEqual({ url: 'p2' });
  });

  it('a later invalid link replaces an earlier valid one (merge before preparation)', () => {
    const prepared = prepareConfig(
      overlayConfigs([
        { allLinks: { p: { url: 'p' }, q: { url: 'q' } } },
        { allLinks: { p: { label: 'no url' } } },
      ]),
    );
    expect(prepared.ids).toEqual(['q']);
  });

  it('merges macros, searchPatterns and settings by key; drops protocols and other keys', () => {
    const merged = overlayConfigs([
      {
        allLinks: { a: { url: 'a', tags: ['x'] } },
        macros: { m: { linkItems: 'a' }, k: { linkItems: 'a' } },
        searchPatterns: { s: 'a' },
        settings: { deep: { one: 1 }, keep: true },
        protocols: { web: {} },
        custom: 1,
      },
      {
        allLinks: { b: { url: 'b', tags: ['x'] } },
        macros: { m: { linkItems: 'b' } },
        settings: { deep: { two: 2 } },
      },
      { allLinks: {} },
    ]);
    expect(merged).toEqual({
      allLinks: { a: { url: 'a', tags: ['x'] }, b: { url: 'b', tags: ['x'] } },
      macros: { m: { linkItems: 'b' }, k: { linkItems: 'a' } },
      searchPatterns: { s: 'a' },
      settings: { deep: { two: 2 }, keep: true },
    });
    const prepared = prepareConfig(merged);
    expect(ids(prepared, '@m, @k')).toBe('b,a');
    expect([...prepared.protocolNames]).toEqual([]);
  });

  it('configs without allLinks, or not objects, contribute no links (D2)', () => {
    const merged = overlayConfigs([
      { macros: { m: { linkItems: 'a' } } },
      null,
      5,
      { allLinks: 'x' },
      { allLinks: { a: { url: 'a' } } },
    ]);
    expect(ids(prepareConfig(merged), '@m')).toBe('a');
    expect(overlayConfigs([])).toEqual({ allLinks: {} });
  });

  it('skips blocked keys', () => {
    const merged = overlayConfigs([
      JSON.parse(
        '{"allLinks":{"__proto__":{"url":"x"},"a":{"url":"a"}},"macros":{"constructor":{"linkItems":"a"}}}',
      ) as unknown,
    ]);
    expect(Object.keys(merged['allLinks'] as object)).toEqual(['a']);
    expect(Object.keys(merged['macros'] as object)).toEqual([]);
    expect(Object.getPrototypeOf(merged['allLinks'])).toBe(Object.prototype);
  });
});
