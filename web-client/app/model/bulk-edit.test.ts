import { applyMergePatch, validateLinkConfig } from '@linkconfig/shared';
import type { LinkConfig } from '@linkconfig/shared';
import { describe, expect, it } from 'vitest';
import { bulkPatch, patched, transferPatches, undone } from './bulk-edit.js';

const config: LinkConfig = {
  allLinks: {
    a: { url: 'https://a.example', label: 'A', tags: ['nyc'] },
    b: { url: 'https://b.example', tags: ['nyc', 'bridge'] },
    c: { url: 'https://c.example', description: 'old', cssClass: 'x' },
    d: { url: 'https://d.example', tags: ['sf'] },
  },
  macros: { city: { linkItems: '.nyc' } },
};

function patchOf(ids: string[], action: Parameters<typeof bulkPatch>[2]) {
  const plan = bulkPatch(config, ids, action);
  if (!plan.ok) throw new Error(plan.problem);
  return plan;
}

describe('bulkPatch', () => {
  it('adds tags by the tag rule, naming only links that lack one', () => {
    const plan = patchOf(['a', 'b', 'c'], {
      kind: 'add-tags',
      tags: 'Bridge, new',
    });
    expect(plan.patch).toEqual({
      allLinks: {
        a: { tags: ['nyc', 'bridge', 'new'] },
        b: { tags: ['nyc', 'bridge', 'new'] },
        c: { tags: ['bridge', 'new'] },
      },
    });
    expect(plan.changed).toEqual(['a', 'b', 'c']);
    const next = patched(config, plan.patch);
    expect(validateLinkConfig(next).ok).toBe(true);
    expect(next.allLinks['d']).toEqual(config.allLinks['d']);
    expect(next.macros).toEqual(config.macros);
  });

  it('leaves out links that already have every tag, and says when nothing changes', () => {
    expect(
      bulkPatch(config, ['a', 'b'], { kind: 'add-tags', tags: 'nyc' }).ok,
    ).toBe(false);
    const plan = patchOf(['a', 'b'], { kind: 'add-tags', tags: 'bridge' });
    expect(plan.patch).toEqual({
      allLinks: { a: { tags: ['nyc', 'bridge'] } },
    });
  });

  it('removes tags as typed or as stored, and drops an emptied tags field', () => {
    const plan = patchOf(['a', 'b', 'd'], { kind: 'remove-tags', tags: 'NYC' });
    expect(plan.patch).toEqual({
      allLinks: { a: { tags: null }, b: { tags: ['bridge'] } },
    });
    const next = patched(config, plan.patch);
    expect(next.allLinks['a']).toEqual({
      url: 'https://a.example',
      label: 'A',
    });
    expect(validateLinkConfig(next).ok).toBe(true);
  });

  it('deletes the selected links with one null each, ignoring ids the config lacks', () => {
    const plan = patchOf(['b', 'gone', 'd'], { kind: 'delete' });
    expect(plan.patch).toEqual({ allLinks: { b: null, d: null } });
    expect(Object.keys(patched(config, plan.patch).allLinks)).toEqual([
      'a',
      'c',
    ]);
  });

  it('sets and clears a field; JSON for a value starting with [ or {; refuses per-link fields', () => {
    expect(
      patchOf(['a', 'c'], {
        kind: 'set-field',
        field: 'description',
        value: 'old',
      }).patch,
    ).toEqual({ allLinks: { a: { description: 'old' } } });
    expect(
      patchOf(['a', 'c'], { kind: 'set-field', field: 'cssClass', value: '' })
        .patch,
    ).toEqual({ allLinks: { c: { cssClass: null } } });
    expect(
      patchOf(['a'], { kind: 'set-field', field: 'meta', value: '{"k": 1}' })
        .patch,
    ).toEqual({ allLinks: { a: { meta: { k: 1 } } } });
    for (const field of ['url', 'label', 'tags', 'id', ''])
      expect(
        bulkPatch(config, ['a'], { kind: 'set-field', field, value: 'x' }).ok,
      ).toBe(false);
    // The shared schema's known fields: hooks must be a list of texts.
    expect(
      bulkPatch(config, ['a'], {
        kind: 'set-field',
        field: 'hooks',
        value: '{"a":1}',
      }).ok,
    ).toBe(false);
  });

  it('has nothing to do without a selection', () => {
    expect(bulkPatch(config, [], { kind: 'delete' })).toEqual({
      ok: false,
      problem: 'Select links first.',
    });
  });

  it('scales to 500 selected links as one patch', () => {
    const big: LinkConfig = {
      allLinks: Object.fromEntries(
        Array.from({ length: 500 }, (_, i) => [
          `l${i}`,
          { url: `https://e.example/${i}` },
        ]),
      ),
    };
    const plan = bulkPatch(big, Object.keys(big.allLinks), {
      kind: 'add-tags',
      tags: 'x',
    });
    expect(
      plan.ok && Object.keys(plan.patch['allLinks'] as object),
    ).toHaveLength(500);
  });
});

describe('transferPatches', () => {
  const target: LinkConfig = { allLinks: { z: { url: 'https://z.example' } } };

  it('moves: the links added to the target and removed from the source', () => {
    const plan = transferPatches(
      { source: config, target },
      ['a', 'c'],
      'move',
    );
    expect(plan).toEqual({
      ok: true,
      source: { allLinks: { a: null, c: null } },
      target: {
        allLinks: { a: config.allLinks['a'], c: config.allLinks['c'] },
      },
      ids: ['a', 'c'],
    });
    if (!plan.ok || plan.source === undefined) throw new Error('no plan');
    expect(Object.keys(patched(target, plan.target).allLinks)).toEqual([
      'z',
      'a',
      'c',
    ]);
    expect(Object.keys(patched(config, plan.source).allLinks)).toEqual([
      'b',
      'd',
    ]);
  });

  it('copies: the source is not written', () => {
    const plan = transferPatches({ source: config, target }, ['b'], 'copy');
    expect(plan.ok && plan.source).toBeUndefined();
  });

  it('refuses ids the target already has, naming them', () => {
    const plan = transferPatches(
      {
        source: config,
        target: { allLinks: { a: { url: 'https://q.example' } } },
      },
      ['a', 'b'],
      'move',
    );
    expect(plan.ok).toBe(false);
    expect(!plan.ok && plan.problem).toContain(': a.');
  });
});

describe('undone', () => {
  it('puts deleted links back in their place and keeps later edits of other links', () => {
    const plan = patchOf(['a', 'c'], { kind: 'delete' });
    const after = patched(config, plan.patch);
    const later = applyMergePatch(after, {
      allLinks: { d: { label: 'later' } },
    }) as LinkConfig;
    const back = undone(later, config, after);
    expect(Object.keys(back.allLinks)).toEqual(['a', 'b', 'c', 'd']);
    expect(back.allLinks['a']).toEqual(config.allLinks['a']);
    expect(back.allLinks['d']).toEqual({
      url: 'https://d.example',
      tags: ['sf'],
      label: 'later',
    });
  });

  it('takes a tag edit back exactly', () => {
    const plan = patchOf(['a', 'b', 'c', 'd'], { kind: 'add-tags', tags: 'x' });
    const after = patched(config, plan.patch);
    expect(undone(after, config, after)).toEqual(config);
  });
});
