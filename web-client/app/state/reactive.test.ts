import { describe, expect, it } from 'vitest';
import { reactive } from './reactive.js';

describe('reactive', () => {
  it('calls changed on every write that changes something, however deep', () => {
    let changes = 0;
    const { state } = reactive(
      { open: { draft: { links: ['a'] }, dirty: false }, text: '' },
      () => changes++,
    );
    state.text = 'x';
    state.open.dirty = true;
    state.open.draft.links.push('b');
    expect(changes).toBeGreaterThanOrEqual(3);
    const before = changes;
    state.text = 'x';
    state.open.dirty = true;
    expect(changes).toBe(before);
    delete (state as { text?: string }).text;
    expect(changes).toBe(before + 1);
  });

  it('hands out the same view of an object, and keeps only plain values in the tree', () => {
    const { state, raw } = reactive(
      { open: { draft: { allLinks: { a: { url: 'u' } } } } as object | null },
      () => undefined,
    );
    const open = state.open as { draft: { allLinks: object } };
    expect(state.open).toBe(open);
    // A fresh object built from views: the tree keeps plain values.
    state.open = {
      draft: { ...open.draft, allLinks: { ...open.draft.allLinks } },
    };
    const plain = raw(state.open);
    expect(() => structuredClone(plain)).not.toThrow();
    expect(structuredClone(plain)).toEqual({
      draft: { allLinks: { a: { url: 'u' } } },
    });
    expect(state.open).not.toBe(open);
  });

  it('leaves class instances and frozen objects alone', () => {
    const error = new Error('x');
    const frozen = Object.freeze({ a: 1 });
    const { state } = reactive({ error, frozen }, () => undefined);
    expect(state.error).toBe(error);
    expect(state.frozen).toBe(frozen);
  });
});
