import { describe, expect, it } from 'vitest';
import {
  countLinks,
  diffConfigs,
  diffingConfigs,
  summarizeDiff,
} from './config-diff.js';

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

  it('pauses between steps of a large diff, to the same result as at once', () => {
    const links = (n: number, mark: string) => ({
      allLinks: Object.fromEntries(
        Array.from({ length: n }, (_, i) => [
          `l${i}`,
          { url: `https://x/${i}`, label: i === 7 ? mark : 'x' },
        ]),
      ),
    });
    const steps = diffingConfigs(links(1000, 'a'), links(900, 'b'));
    let pauses = 0;
    let step = steps.next();
    while (step.done !== true) {
      pauses++;
      step = steps.next();
    }
    // 900 links of `after`, then 1,000 of `before`: a pause every 64.
    expect(pauses).toBe(Math.floor(1900 / 64));
    expect(step.value).toEqual(diffConfigs(links(1000, 'a'), links(900, 'b')));
    expect(summarizeDiff(step.value)).toEqual({
      added: 0,
      removed: 100,
      changed: 1,
    });
    expect(countLinks(links(900, 'b'))).toBe(900);
    expect(countLinks(null)).toBe(0);
  });
});
