import { describe, expect, it } from 'vitest';
import { diffConfigs, summarizeDiff } from './config-diff.js';

describe('diffConfigs', () => {
  it('names links added, removed and changed, with the fields that differ', () => {
    const before = {
      allLinks: {
        a: { url: 'https://a', label: 'A' },
        b: { url: 'https://b' },
        c: { url: 'https://c', tags: ['x'] },
      },
      macros: { m: {} },
    };
    const after = {
      allLinks: {
        c: { url: 'https://c', tags: ['x', 'y'], label: 'C' },
        a: { label: 'A', url: 'https://a' },
        d: { url: 'https://d' },
      },
      macros: { m: {} },
      settings: { s: 1 },
    };
    const diff = diffConfigs(before, after);
    expect(diff).toEqual({
      added: ['d'],
      removed: ['b'],
      changed: [{ id: 'c', fields: ['tags', 'label'] }],
      macros: false,
      settings: true,
      searchPatterns: false,
    });
    expect(summarizeDiff(diff)).toEqual({ added: 1, removed: 1, changed: 1 });
  });

  it('treats no config (a delete) as a config without links', () => {
    const config = { allLinks: { a: {} } };
    expect(summarizeDiff(diffConfigs(null, config))).toEqual({
      added: 1,
      removed: 0,
      changed: 0,
    });
    expect(diffConfigs(config, null).removed).toEqual(['a']);
  });
});
