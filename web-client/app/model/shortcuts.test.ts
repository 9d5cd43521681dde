import { describe, expect, it } from 'vitest';
import { moveCursor, SHORTCUTS, shortcutOf, takesTyping } from './shortcuts.js';
import type { KeyPress } from './shortcuts.js';

const press = (key: string, more: Partial<KeyPress> = {}): KeyPress => ({
  key,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  inTextField: false,
  ...more,
});

describe('shortcutOf', () => {
  it('maps each listed key to its shortcut', () => {
    expect(SHORTCUTS.map((entry) => shortcutOf(press(entry.key)))).toEqual([
      'focus-filter',
      'next',
      'previous',
      'edit',
      'select',
      'cancel',
      'help',
    ]);
  });

  it('fires nothing inside a text field but Escape', () => {
    for (const { key } of SHORTCUTS)
      expect(shortcutOf(press(key, { inTextField: true }))).toBe(
        key === 'Escape' ? 'cancel' : null,
      );
  });

  it('leaves keys with Ctrl, Alt or ⌘ and other keys alone', () => {
    expect(shortcutOf(press('s', { ctrlKey: true }))).toBeNull();
    expect(shortcutOf(press('j', { metaKey: true }))).toBeNull();
    expect(shortcutOf(press('e', { altKey: true }))).toBeNull();
    expect(shortcutOf(press('J'))).toBeNull();
    expect(shortcutOf(press('Enter'))).toBeNull();
  });
});

describe('takesTyping', () => {
  it('knows text fields from buttons and checkboxes', () => {
    expect(takesTyping({ tagName: 'INPUT', type: 'text' })).toBe(true);
    expect(takesTyping({ tagName: 'INPUT', type: 'search' })).toBe(true);
    expect(takesTyping({ tagName: 'INPUT' })).toBe(true);
    expect(takesTyping({ tagName: 'TEXTAREA' })).toBe(true);
    expect(takesTyping({ tagName: 'SELECT' })).toBe(true);
    expect(takesTyping({ tagName: 'DIV', isContentEditable: true })).toBe(true);
    expect(takesTyping({ tagName: 'INPUT', type: 'checkbox' })).toBe(false);
    expect(takesTyping({ tagName: 'BUTTON' })).toBe(false);
    expect(takesTyping({ tagName: 'TR' })).toBe(false);
  });
});

describe('moveCursor', () => {
  const order = ['a', 'b', 'c'];
  it('moves within the order and stops at its ends', () => {
    expect(moveCursor(order, 'a', 1)).toBe('b');
    expect(moveCursor(order, 'c', 1)).toBe('c');
    expect(moveCursor(order, 'a', -1)).toBe('a');
  });
  it('starts at the first (j) or last (k) row without a current one', () => {
    expect(moveCursor(order, null, 1)).toBe('a');
    expect(moveCursor(order, 'gone', -1)).toBe('c');
    expect(moveCursor([], null, 1)).toBeNull();
  });
});
