import { describe, expect, it } from 'vitest';
import {
  keepPresent,
  NO_SELECTION,
  selectAll,
  selectRange,
  toggleSelected,
} from './link-selection.js';

const order = ['a', 'b', 'c', 'd', 'e'];

describe('link selection', () => {
  it('toggles one link and makes it the anchor', () => {
    const one = toggleSelected(NO_SELECTION, 'b');
    expect(one).toEqual({ ids: ['b'], anchor: 'b' });
    expect(toggleSelected(one, 'b')).toEqual({ ids: [], anchor: 'b' });
  });

  it('selects the range from the anchor with shift, either way', () => {
    const from = toggleSelected(NO_SELECTION, 'b');
    expect(selectRange(from, order, 'd').ids.sort()).toEqual(['b', 'c', 'd']);
    expect(
      selectRange(toggleSelected(NO_SELECTION, 'd'), order, 'a').ids.sort(),
    ).toEqual(['a', 'b', 'c', 'd']);
  });

  it('unselects a range when the shift-clicked link was selected', () => {
    const all = selectAll(toggleSelected(NO_SELECTION, 'a'), order);
    expect(selectRange(all, order, 'c').ids).toEqual(['d', 'e']);
  });

  it('toggles only the clicked link without an anchor in the order', () => {
    expect(selectRange(NO_SELECTION, order, 'c')).toEqual({
      ids: ['c'],
      anchor: 'c',
    });
    expect(selectRange({ ids: [], anchor: 'gone' }, order, 'c').ids).toEqual([
      'c',
    ]);
  });

  it('selects every shown link once', () => {
    expect(selectAll({ ids: ['x', 'a'], anchor: null }, order).ids).toEqual([
      'x',
      'a',
      'b',
      'c',
      'd',
      'e',
    ]);
  });

  it('forgets ids the config no longer has', () => {
    const selection = { ids: ['a', 'b'], anchor: 'b' };
    expect(keepPresent(selection, { a: 1 })).toEqual({
      ids: ['a'],
      anchor: null,
    });
    expect(keepPresent(selection, { a: 1, b: 1 })).toBe(selection);
  });
});
