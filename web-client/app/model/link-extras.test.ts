import type { LinkConfig } from '@linkconfig/shared';
import { describe, expect, it } from 'vitest';
import { linkFields, putLink } from './config-draft.js';
import { extraFields, parseExtras } from './link-extras.js';

describe('extraFields', () => {
  it('lists every field without an own input; text as it is, the rest as JSON', () => {
    expect(
      extraFields({
        url: 'u',
        label: 'l',
        description: 'd',
        cssClass: 'big',
        hooks: ['a'],
        createdAt: 5,
      }),
    ).toEqual([
      { key: 'cssClass', value: 'big', json: false },
      { key: 'hooks', value: '["a"]', json: true },
      { key: 'createdAt', value: '5', json: true },
    ]);
  });
});

describe('parseExtras', () => {
  it('reads text, JSON where the value was JSON or starts with [ or {', () => {
    expect(
      parseExtras([
        { key: 'cssClass', value: 'big', json: false },
        { key: 'meta', value: '{"owner": "web"}', json: false },
        { key: 'createdAt', value: '7', json: true },
      ]),
    ).toEqual({
      ok: true,
      values: { cssClass: 'big', meta: { owner: 'web' }, createdAt: 7 },
    });
  });

  it('points at the first field with a problem', () => {
    const bad = (key: string, value: string, json = false) =>
      parseExtras([
        { key: 'ok', value: 'x', json: false },
        { key, value, json },
      ]);
    expect(bad('', 'x')).toMatchObject({ ok: false, index: 1, part: 'key' });
    expect(bad('label', 'x')).toMatchObject({ part: 'key' });
    expect(bad('ok', 'x')).toMatchObject({
      part: 'key',
      problem: 'There is another field “ok”.',
    });
    expect(bad('__proto__', 'x')).toMatchObject({ part: 'key' });
    expect(bad('meta', '{oops')).toMatchObject({
      part: 'value',
      problem: 'This is not valid JSON.',
    });
    // The shared schema says what known fields hold.
    expect(bad('hooks', 'not a list')).toMatchObject({ part: 'value' });
    expect(bad('hooks', '[1]')).toMatchObject({ part: 'value' });
  });
});

describe('putLink with every field', () => {
  const config: LinkConfig = {
    allLinks: {
      a: {
        url: 'https://a',
        description: 'old',
        cssClass: 'x',
        meta: { k: 1 },
      },
    },
  };

  it('writes the description and the listed fields, dropping those removed', () => {
    const fields = linkFields('a', config.allLinks['a']);
    expect(fields.description).toBe('old');
    const next = putLink(
      config,
      {
        ...fields,
        description: 'new words',
        extras: [{ key: 'meta', value: '{"k": 2}', json: true }],
      },
      'a',
    );
    expect(next.allLinks['a']).toEqual({
      url: 'https://a',
      description: 'new words',
      meta: { k: 2 },
    });
  });

  it('keeps the fields when the form does not list them', () => {
    const next = putLink(
      config,
      { id: 'a', label: 'A', url: 'https://a', tags: '' },
      'a',
    );
    expect(next.allLinks['a']).toEqual({
      url: 'https://a',
      label: 'A',
      description: 'old',
      cssClass: 'x',
      meta: { k: 1 },
    });
  });

  it('removes an emptied description', () => {
    const next = putLink(
      config,
      { ...linkFields('a', config.allLinks['a']), description: '  ' },
      'a',
    );
    expect(next.allLinks['a']).not.toHaveProperty('description');
  });
});
