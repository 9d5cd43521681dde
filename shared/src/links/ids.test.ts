import { describe, expect, it } from 'vitest';
import { FALLBACK_ID, idBase, idForLabel, uniqueId } from './ids.js';

describe('ids made from a label', () => {
  it('folds the label as tags are folded, never only digits or a blocked name', () => {
    expect(idBase('Rust Book — 2nd ed.')).toBe('rust_book_2nd_ed');
    expect(idBase('2024')).toBe('link_2024');
    expect(idBase('constructor')).toBe('link_constructor');
    expect(idBase('日本語')).toBe(FALLBACK_ID);
  });

  it('numbers an id that is taken', () => {
    expect(idForLabel('Rust Book', ['rust_book', 'rust_book_2'])).toBe(
      'rust_book_3',
    );
    const taken = new Set(['a']);
    expect(uniqueId('a', taken)).toBe('a_2');
    expect(taken.has('a_2')).toBe(true);
  });
});
