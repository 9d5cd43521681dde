import { describe, expect, it } from 'vitest';
import { applyMergePatch } from '../sync/merge-patch.js';
import { planTagRename } from './plan-rename.js';
import { tagInventory } from './tag-inventory.js';

const config = () => ({
  allLinks: {
    a: { url: 'https://a.example', tags: ['nyc', 'bridge'] },
    b: { url: 'https://b.example', tags: ['NYC'] },
    c: { url: 'https://c.example', tags: ['newyork', 'nyc'] },
    d: { url: 'https://d.example', tags: ['sf', 'bridges'] },
  },
  macros: {
    city: { linkItems: '.nyc' },
    bridges: { linkItems: '.nyc + .bridge' },
    other: { linkItems: '.sf | d' },
    upper: { linkItems: '.nyc - .NYC' },
    byPattern: { linkItems: '/ny/' },
  },
  searchPatterns: { ny: 'ny', far: 'zzz' },
  settings: { menu: { expression: '@city | .nyc' }, theme: 'dark' },
});

describe('planning a tag rename', () => {
  it('renames links and every expression, and a pure rename changes no macro result', () => {
    const base = config();
    const plan = planTagRename(base, ['nyc'], 'gotham');
    expect(plan.preview.links).toEqual(['a', 'c']);
    expect(plan.preview.mergesIntoExisting).toBe(false);
    expect(plan.preview.expressions.map((e) => e.where)).toEqual([
      'macros.city',
      'macros.bridges',
      'macros.upper',
      'settings.menu.expression',
    ]);
    expect(plan.next['settings']).toEqual({
      menu: { expression: '@city | .gotham' },
      theme: 'dark',
    });
    const city = plan.preview.macros.find((m) => m.name === 'city');
    expect(city).toMatchObject({
      before: ['a', 'c'],
      after: ['a', 'c'],
      flagged: false,
    });
    // A search pattern matching tags by regular expression is not an expression: it no longer matches.
    const byPattern = plan.preview.macros.find((m) => m.name === 'byPattern');
    expect(byPattern?.flagged).toBe(true);
    expect(plan.preview.patternsToReview).toEqual(['ny']);
    // The input is untouched, and the merge patch makes exactly the next config.
    expect(base).toEqual(config());
    expect(applyMergePatch(base, plan.patch)).toEqual(plan.next);
  });

  it('says when the rename merges into an existing tag, and accepts what the merge implies', () => {
    const plan = planTagRename(config(), ['NYC', 'newyork'], 'nyc');
    expect(plan.preview.mergesIntoExisting).toBe(true);
    expect(plan.preview.notes[0]).toContain('already a tag');
    expect(plan.next['allLinks']).toMatchObject({
      b: { tags: ['nyc'] },
      c: { tags: ['nyc'] },
    });
    const city = plan.preview.macros.find((m) => m.name === 'city');
    expect(city).toMatchObject({
      before: ['a', 'c'],
      after: ['a', 'b', 'c'],
      flagged: false,
    });
    // `.nyc - .NYC` becomes `.nyc - .nyc`: it loses links, which the merge does not imply.
    const upper = plan.preview.macros.find((m) => m.name === 'upper');
    expect(upper?.flagged).toBe(true);
    expect(upper?.reason).toContain('no longer selects');
  });

  it('changes nothing when no link or expression names the tags', () => {
    const plan = planTagRename(config(), ['absent'], 'x');
    expect(plan.changes).toBe(false);
    expect(plan.patch).toEqual({});
  });

  it('lists tags with counts, users and likely variants', () => {
    const tags = tagInventory(config());
    const nyc = tags.find((t) => t.tag === 'nyc');
    expect(nyc?.links).toEqual(['a', 'c']);
    expect(nyc?.usedBy).toEqual([
      'macros.city',
      'macros.bridges',
      'macros.upper',
      'settings.menu.expression',
    ]);
    expect(nyc?.variants).toEqual([{ kind: 'case', of: 'NYC' }]);
    const bridges = tags.find((t) => t.tag === 'bridges');
    expect(bridges?.variants).toContainEqual({ kind: 'plural', of: 'bridge' });
    expect(bridges?.variants).toContainEqual({ kind: 'once' });
  });
});
