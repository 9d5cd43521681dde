import type { LinkConfig } from '@linkconfig/shared';
import { describe, expect, it } from 'vitest';
import { compareConfigs, isSameComparison } from '@linkconfig/shared';
import { mergeConfigs } from './config-diff.js';

const mine = (): LinkConfig => ({
  allLinks: {
    both: { url: 'https://same.example', tags: ['a', 'b'] },
    edited: { url: 'https://mine.example', label: 'Mine' },
    added: { url: 'https://added.example' },
  },
  macros: { m: { linkItems: '.mine' } },
  settings: { listType: 'ul' },
});

const theirs = (): LinkConfig => ({
  allLinks: {
    gone: { url: 'https://gone.example' },
    // Same contents, keys in another order: not a change.
    both: { tags: ['a', 'b'], url: 'https://same.example' },
    edited: { url: 'https://theirs.example', label: 'Theirs' },
  },
  macros: { m: { linkItems: '.theirs' }, t: { linkItems: '.t' } },
  settings: { listType: 'ul' },
});

// The page's comparisons are the shared one (`compareConfigs`), theirs before and mine after: what the
// page called "only mine" is `added`, "only theirs" is `removed`, and a changed link carries both sides.
describe('compareConfigs, as the page uses it', () => {
  it('names the ids only one side has and the ids both have with other contents', () => {
    const diff = compareConfigs(theirs(), mine());
    expect(diff.added).toEqual(['added']);
    expect(diff.removed).toEqual(['gone']);
    expect(diff.changed).toEqual([
      {
        id: 'edited',
        fields: ['url', 'label'],
        after: { url: 'https://mine.example', label: 'Mine' },
        before: { url: 'https://theirs.example', label: 'Theirs' },
      },
    ]);
    expect(diff.parts).toEqual(['macros']);
    expect(isSameComparison(diff)).toBe(false);
  });

  it('finds no difference between equal versions', () => {
    const diff = compareConfigs(structuredClone(mine()), mine());
    expect(diff).toEqual({
      added: [],
      removed: [],
      changed: [],
      parts: [],
    });
    expect(isSameComparison(diff)).toBe(true);
  });

  it('counts a deleted side as a config without links', () => {
    expect(compareConfigs(theirs(), null).removed).toEqual([
      'gone',
      'both',
      'edited',
    ]);
    expect(compareConfigs(null, mine()).added).toEqual([
      'both',
      'edited',
      'added',
    ]);
    // Its parts count as absent (the conflict panel compares only links beside a deleted version).
    expect(compareConfigs(null, mine()).parts).toEqual(['macros', 'settings']);
  });

  it('notices settings and unknown keys that differ', () => {
    const other = { ...mine(), settings: { listType: 'ol' }, extra: 1 };
    expect(compareConfigs(other, mine()).parts).toEqual(['settings', 'other']);
  });
});

describe('mergeConfigs', () => {
  it('keeps every link of both sides; where both have an id, mine wins', () => {
    const merged = mergeConfigs(mine(), theirs());
    expect(Object.keys(merged.allLinks)).toEqual([
      'both',
      'edited',
      'added',
      'gone',
    ]);
    expect(merged.allLinks['edited']).toEqual(mine().allLinks['edited']);
    expect(merged.allLinks['gone']).toEqual(theirs().allLinks['gone']);
    expect(merged.macros).toEqual({
      m: { linkItems: '.mine' },
      t: { linkItems: '.t' },
    });
    expect(merged.settings).toEqual({ listType: 'ul' });
  });

  it('takes parts only one side has, and leaves both inputs unchanged', () => {
    const a = { allLinks: { x: { url: 'https://x.example' } } };
    const b: LinkConfig = {
      allLinks: {},
      searchPatterns: { p: 'bridge' },
      settings: { listType: 'ol' },
    };
    const before = structuredClone([a, b]);
    const merged = mergeConfigs(a, b);
    expect(merged).toEqual({
      allLinks: { x: { url: 'https://x.example' } },
      searchPatterns: { p: 'bridge' },
      settings: { listType: 'ol' },
    });
    expect([a, b]).toEqual(before);
    expect('macros' in merged).toBe(false);
  });
});
