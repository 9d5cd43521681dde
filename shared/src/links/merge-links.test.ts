import { describe, expect, it } from 'vitest';
import { planLinkMerge } from './merge-links.js';
import { movedOrder, withLinkOrder } from './link-order.js';
import { renameIdInExpression } from '../tags/rewrite-expression.js';

const renameId = (text: string, from: string, to: string) =>
  renameIdInExpression(text, new Set([from]), to);

describe('the id rewrite rule over the expression grammar', () => {
  it('renames a link id atom, in operators, parentheses and with refiners', () => {
    expect(renameId('old', 'old', 'kept')).toBe('kept');
    expect(renameId(' (a | old) -old, old *limit:2*', 'old', 'kept')).toBe(
      ' (a | kept) -kept, kept *limit:2*',
    );
  });

  it('never touches a macro reference, a tag, a search key, a protocol or refiner argument', () => {
    for (const text of [
      '@old',
      '.old',
      '/old/',
      ':time:old:',
      '*sort:old*',
      '#old',
      'older',
      'old_2',
    ]) {
      expect(renameId(text, 'old', 'kept'), text).toBe(text);
    }
    expect(renameId('@old + old', 'old', 'kept')).toBe('@old + kept');
  });
});

describe('merging two links', () => {
  const config = {
    allLinks: {
      first: { label: 'First', url: 'https://e.com/1' },
      a: {
        label: 'Page',
        url: 'https://example.com/page/',
        tags: ['x', 'y'],
      },
      mid: { label: 'Mid', url: 'https://e.com/m' },
      b: {
        label: 'The page',
        url: 'https://example.com/page?utm_source=news',
        tags: ['y', 'z'],
        description: 'Only here',
      },
    },
    macros: {
      m: { linkItems: 'b | mid' },
      n: { linkItems: '@b + .x' },
      other: { linkItems: '.z' },
    },
    settings: { menu: { items: 'first, b' }, title: 'b' },
  };

  it('keeps the kept link in its place, takes picked fields, unites tags, drops the other', () => {
    const plan = planLinkMerge(config, {
      keep: 'a',
      remove: 'b',
      picks: { label: 'remove' },
    });
    const links = plan.next['allLinks'] as Record<string, unknown>;
    expect(Object.keys(links)).toEqual(['first', 'a', 'mid']);
    // In the kept link's field order, the new field last (so a merge patch can say it).
    expect(JSON.stringify(links['a'])).toBe(
      JSON.stringify({
        label: 'The page',
        url: 'https://example.com/page/',
        tags: ['x', 'y', 'z'],
        description: 'Only here',
      }),
    );
    expect(plan.differing).toEqual(['label', 'url', 'description']);
    // The input is never changed.
    expect(Object.keys(config.allLinks)).toEqual(['first', 'a', 'mid', 'b']);
  });

  it('rewrites every expression that names the removed id, and reports them', () => {
    const plan = planLinkMerge(config, { keep: 'a', remove: 'b' });
    expect(plan.references).toEqual([
      { where: 'macros.m', before: 'b | mid', after: 'a | mid' },
      { where: 'settings.menu.items', before: 'first, b', after: 'first, a' },
      { where: 'settings.title', before: 'b', after: 'a' },
    ]);
    const macros = plan.next['macros'] as Record<string, { linkItems: string }>;
    expect(macros['m']?.linkItems).toBe('a | mid');
    // `@b` is a macro reference, not the id: untouched.
    expect(macros['n']?.linkItems).toBe('@b + .x');
    expect(plan.next['settings']).toEqual({
      menu: { items: 'first, a' },
      title: 'a',
    });
  });

  it('refuses a missing id or a link merged into itself', () => {
    expect(() =>
      planLinkMerge(config, { keep: 'a', remove: 'nope' }),
    ).toThrow();
    expect(() => planLinkMerge(config, { keep: 'a', remove: 'a' })).toThrow();
  });
});

describe('the order of a menu', () => {
  const ids = ['a', 'b', 'c', 'd'];

  it('moves a link up, down, to the top, to the bottom and to another link', () => {
    expect(movedOrder(ids, 'c', 'up')).toEqual(['a', 'c', 'b', 'd']);
    expect(movedOrder(ids, 'b', 'down')).toEqual(['a', 'c', 'b', 'd']);
    expect(movedOrder(ids, 'd', 'top')).toEqual(['d', 'a', 'b', 'c']);
    expect(movedOrder(ids, 'a', 'bottom')).toEqual(['b', 'c', 'd', 'a']);
    expect(movedOrder(ids, 'd', { to: 'b' })).toEqual(['a', 'd', 'b', 'c']);
    expect(movedOrder(ids, 'a', { to: 'c', after: true })).toEqual([
      'b',
      'c',
      'a',
      'd',
    ]);
    // Nothing to do at the edges.
    expect(movedOrder(ids, 'a', 'up')).toBe(ids);
    expect(movedOrder(ids, 'd', 'down')).toBe(ids);
  });

  it('leaves integer-like ids where JavaScript puts them', () => {
    const withIndex = ['3', '20', 'a', 'b'];
    expect(movedOrder(withIndex, '20', 'bottom')).toBe(withIndex);
    expect(movedOrder(withIndex, 'b', 'top')).toEqual(['3', '20', 'b', 'a']);
  });

  it('builds allLinks in the new order', () => {
    const links = { a: 1, b: 2, c: 3 };
    const next = withLinkOrder(
      links,
      movedOrder(Object.keys(links), 'c', 'top'),
    );
    expect(Object.keys(next)).toEqual(['c', 'a', 'b']);
    expect(JSON.stringify(next)).toBe('{"c":3,"a":1,"b":2}');
  });
});
