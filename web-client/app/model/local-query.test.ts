import type { LinkConfig } from '@linkconfig/shared';
import { describe, expect, it } from 'vitest';
import { hintsFor, testLocally } from './local-query.js';

const draft: LinkConfig = {
  allLinks: {
    bridge1: { url: 'https://a', tags: ['nyc', 'bridge'] },
    park: { url: 'https://b', tags: ['nyc', 'Park'] },
  },
  macros: { city: { linkItems: '.nyc' } },
};

/** The hint texts for the first diagnostic of `expression` with `code`. */
function hints(expression: string, code: string): string[] {
  const run = testLocally(draft, expression);
  const diagnostic = run.diagnostics.find((d) => d.code === code);
  expect(diagnostic, `${code} for ${expression}`).toBeDefined();
  return hintsFor(diagnostic!, expression, run.prepared).map(
    (hint) => `${hint.text} → ${hint.fixed ?? ''}`,
  );
}

describe('testLocally', () => {
  it('runs the engine on the draft, answering the same run again for the same input', () => {
    const run = testLocally(draft, '.nyc');
    expect(run.results.map((link) => link.id)).toEqual(['bridge1', 'park']);
    expect(testLocally(draft, '.nyc')).toBe(run);
    const edited = {
      ...draft,
      allLinks: { ...draft.allLinks, x: { url: 'https://x', tags: ['nyc'] } },
    };
    expect(testLocally(edited, '.nyc').results).toHaveLength(3);
  });
});

describe('hintsFor', () => {
  it('offers the tags, macros and ids a few edits away, with the fixed expression', () => {
    expect(hints('.nyx + .bridge', 'unknown-tag')).toEqual([
      'Did you mean .nyc? → .nyc + .bridge',
    ]);
    expect(hints('.bridge | @cty', 'unknown-macro')).toEqual([
      'Did you mean @city? → .bridge | @city',
    ]);
    expect(hints('bridge2', 'unknown-id')).toEqual([
      'Did you mean bridge1? → bridge1',
    ]);
  });

  it('says that names are case-sensitive when only the case differs', () => {
    expect(hints('.park', 'unknown-tag')).toEqual([
      'Tags are case-sensitive: this config has .Park. → .Park',
    ]);
  });

  it('offers nothing when no name is close', () => {
    expect(hints('.zzzzzz', 'unknown-tag')).toEqual([]);
  });
});
