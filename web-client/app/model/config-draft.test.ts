import type { LinkConfig } from '@linkconfig/shared';
import { describe, expect, it } from 'vitest';
import {
  linkFields,
  patternFields,
  putLink,
  putMacro,
  putPattern,
  putSettings,
  removeLink,
  removePattern,
  settingsText,
  suggestedLinkId,
  withLinkField,
} from './config-draft.js';

const base = (): LinkConfig => ({
  allLinks: {
    a: { url: 'https://a.example', label: 'A', description: 'kept' },
    b: { url: 'https://b.example', tags: ['x'] },
    c: { url: 'https://c.example' },
  },
  macros: { m: { linkItems: '.x' } },
  searchPatterns: {
    plain: 'bridge',
    rich: { pattern: 'p', options: { age: '3d', fields: 'l' } },
  },
  settings: { listType: 'ul' },
  extra: true,
});

describe('putLink', () => {
  it('adds a new link at the end', () => {
    const next = putLink(
      base(),
      { id: 'd', label: '', url: ' https://d.example ', tags: 'y, z' },
      null,
    );
    expect(Object.keys(next.allLinks)).toEqual(['a', 'b', 'c', 'd']);
    expect(next.allLinks['d']).toEqual({
      url: 'https://d.example',
      tags: ['y', 'z'],
    });
  });

  it('keeps fields the form does not show, and the place of a renamed link', () => {
    const next = putLink(
      base(),
      { ...linkFields('a', base().allLinks['a']), id: 'z', label: 'Zed' },
      'a',
    );
    expect(Object.keys(next.allLinks)).toEqual(['z', 'b', 'c']);
    expect(next.allLinks['z']).toEqual({
      url: 'https://a.example',
      label: 'Zed',
      description: 'kept',
    });
  });

  it('replaces another link when renamed onto its id', () => {
    const next = putLink(
      base(),
      { id: 'b', label: '', url: 'https://c2.example', tags: '' },
      'c',
    );
    expect(Object.keys(next.allLinks)).toEqual(['a', 'b']);
    expect(next.allLinks['b']).toEqual({ url: 'https://c2.example' });
  });

  it('leaves the original config and its other sections alone', () => {
    const original = base();
    const next = removeLink(original, 'b');
    expect(Object.keys(original.allLinks)).toEqual(['a', 'b', 'c']);
    expect(Object.keys(next.allLinks)).toEqual(['a', 'c']);
    expect(next['extra']).toBe(true);
    expect(next.macros).toBe(original.macros);
  });
});

describe('macros and patterns', () => {
  it('adds and renames macros in place', () => {
    const next = putMacro(base(), { name: 'n', expression: ' .y ' }, 'm');
    expect(next.macros).toEqual({ n: { linkItems: '.y' } });
  });

  it('stores a pattern without options as a plain string', () => {
    const next = putPattern(
      base(),
      { key: 'new', pattern: 'x+', fields: '', sort: '', limit: '' },
      null,
    );
    expect(next.searchPatterns?.['new']).toBe('x+');
  });

  it('keeps options the form does not show, such as age', () => {
    const fields = patternFields('rich', base().searchPatterns?.['rich']);
    expect(fields).toEqual({
      key: 'rich',
      pattern: 'p',
      fields: 'l',
      sort: '',
      limit: '',
    });
    const next = putPattern(
      base(),
      { ...fields, fields: 'l, t', sort: 'alpha', limit: '5' },
      'rich',
    );
    expect(next.searchPatterns?.['rich']).toEqual({
      pattern: 'p',
      options: { age: '3d', fields: 'lt', sort: 'alpha', limit: 5 },
    });
    expect(
      Object.keys(removePattern(next, 'plain').searchPatterns ?? {}),
    ).toEqual(['rich']);
  });
});

describe('settings', () => {
  it('shows settings as JSON and removes them when empty', () => {
    expect(settingsText(base())).toBe('{\n  "listType": "ul"\n}');
    const next = putSettings(base(), undefined);
    expect('settings' in next).toBe(false);
    expect(settingsText(next)).toBe('');
  });
});

describe('a new link id made from its label', () => {
  const empty = { id: '', label: '', url: '', tags: '' };

  it('follows the label by the import rule, unique among the ids', () => {
    const config: LinkConfig = {
      allLinks: { rust_book: { url: 'https://r.example' } },
    };
    let values = withLinkField(
      empty,
      { field: 'label', value: 'Rust Book', adding: true },
      config,
    );
    expect(values.id).toBe('rust_book_2');
    values = withLinkField(
      values,
      { field: 'label', value: 'Café Menu', adding: true },
      config,
    );
    expect(values.id).toBe('cafe_menu');
    expect(
      suggestedLinkId({ label: '', url: 'https://x.example/a' }, config),
    ).toBe('https_x_example_a');
  });

  it('keeps an id the person typed, and never renames a link being edited', () => {
    const config = base();
    const typed = withLinkField(
      { ...empty, id: 'mine' },
      { field: 'label', value: 'Something', adding: true },
      config,
    );
    expect(typed.id).toBe('mine');
    const editing = withLinkField(
      { ...empty, id: 'a', label: 'A' },
      { field: 'label', value: 'Another', adding: false },
      config,
    );
    expect(editing.id).toBe('a');
  });
});
