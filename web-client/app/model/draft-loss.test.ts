import { describe, expect, it } from 'vitest';
import { draftLosses } from './draft-loss.js';

describe('draftLosses', () => {
  const saved = {
    allLinks: { a: { url: 'https://a' }, b: { url: 'https://b' } },
    macros: { m: { linkItems: '.x' } },
  };

  it('says nothing when the draft is the saved version', () => {
    expect(draftLosses(structuredClone(saved), saved)).toEqual([]);
  });

  it('names links added, deleted and changed, and other parts changed', () => {
    const draft = {
      allLinks: {
        a: { url: 'https://a2' },
        c: { url: 'https://c' },
      },
      macros: {},
    };
    expect(draftLosses(draft, saved)).toEqual([
      '1 link added (“c”)',
      '1 link deleted (“b”)',
      '1 link changed (“a”)',
      'changes to macros',
    ]);
  });

  it('names a few and counts the rest', () => {
    const allLinks = Object.fromEntries(
      Array.from({ length: 7 }, (_, i) => [`n${i}`, { url: 'https://n' }]),
    );
    expect(draftLosses({ allLinks }, { allLinks: {} })).toEqual([
      '7 links added (“n0”, “n1”, “n2”, “n3”, “n4” and 2 more)',
    ]);
  });
});
