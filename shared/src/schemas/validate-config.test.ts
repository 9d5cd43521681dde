import { describe, expect, it } from 'vitest';
import {
  StoredLinkConfigSchema,
  validateLinkConfig,
} from './validate-config.js';

describe('validateLinkConfig', () => {
  it.each([
    ['a non-object config', [], 'config must be a JSON object'],
    ['null', null, 'config must be a JSON object'],
    ['a string', 'x', 'config must be a JSON object'],
    ['a missing allLinks', {}, 'allLinks is required'],
    ['a non-object allLinks', { allLinks: [] }, 'allLinks must be an object'],
    ['a null allLinks', { allLinks: null }, 'allLinks must be an object'],
    [
      'a link that is not an object',
      { allLinks: { a: 'x' } },
      'allLinks.a must be an object',
    ],
    [
      'a link that is an array',
      { allLinks: { a: [] } },
      'allLinks.a must be an object',
    ],
    [
      'a link without url',
      { allLinks: { home: {} } },
      'allLinks.home.url must be a string',
    ],
    [
      'a numeric url',
      { allLinks: { home: { url: 5 } } },
      'allLinks.home.url must be a string',
    ],
    [
      'an odd link id, quoted in the path',
      { allLinks: { 'my link': { url: null } } },
      'allLinks["my link"].url must be a string',
    ],
    [
      'a non-object macros',
      { allLinks: {}, macros: 'x' },
      'macros must be an object',
    ],
    [
      'a macro without linkItems',
      { allLinks: {}, macros: { m: {} } },
      'macros.m.linkItems must be a string',
    ],
    [
      'a macro that is a string',
      { allLinks: {}, macros: { m: '.x' } },
      'macros.m must be an object',
    ],
    [
      'a non-object searchPatterns',
      { allLinks: {}, searchPatterns: [] },
      'searchPatterns must be an object',
    ],
    [
      'a search pattern without a string pattern',
      { allLinks: {}, searchPatterns: { p: { pattern: 1 } } },
      'searchPatterns.p must be a string or an object with a string pattern',
    ],
    [
      'a numeric search pattern',
      { allLinks: {}, searchPatterns: { p: 3 } },
      'searchPatterns.p must be a string or an object with a string pattern',
    ],
    [
      'a non-object settings',
      { allLinks: {}, settings: 1 },
      'settings must be an object',
    ],
  ])('rejects %s', (_label, value, error) => {
    const result = validateLinkConfig(value);
    expect(result).toMatchObject({ ok: false, error });
  });

  it('accepts odd but valid configs and returns the very same object', () => {
    const text =
      '{"zeta":1,"allLinks":{"b-2":{"url":"","createdAt":"not a date","rank":9},"10":{"url":"javascript:x","meta":"odd"}},' +
      '"name":"mine","macros":{"m-x":{"linkItems":""}},"searchPatterns":{"p":"(a","q":{"pattern":"x","options":{"age":30}}},' +
      '"settings":{"deep":{"n":[1,{"k":null}]}},"meta":{"createdAt":5}}';
    const value: unknown = JSON.parse(text);
    const result = validateLinkConfig(value);
    expect(result.ok).toBe(true);
    expect(result.ok && result.config).toBe(value);
    expect(JSON.stringify(value)).toBe(JSON.stringify(JSON.parse(text)));
  });

  it('accepts a minimal config', () => {
    expect(validateLinkConfig({ allLinks: {} })).toMatchObject({ ok: true });
  });

  it('accepts prototype-named ids as ordinary keys without polluting anything', () => {
    const value: unknown = JSON.parse('{"allLinks":{"__proto__":{"url":"x"}}}');
    expect(validateLinkConfig(value).ok).toBe(true);
    expect(({} as Record<string, unknown>)['url']).toBeUndefined();
  });

  it('refuses, when asked, a config nested deeper than the bound, in the same call', () => {
    const nested = (depth: number): unknown => {
      let value: unknown = 1;
      for (let i = 0; i < depth; i++) value = { v: value };
      return value;
    };
    // The config object itself is level 1; `settings` holds levels 2 and deeper.
    const config = (depth: number) => ({
      allLinks: {},
      settings: nested(depth),
    });
    expect(validateLinkConfig(config(255), { maxDepth: 256 }).ok).toBe(true);
    expect(validateLinkConfig(config(256), { maxDepth: 256 })).toMatchObject({
      ok: false,
      error: 'the config is nested deeper than 256 levels',
    });
    expect(validateLinkConfig(config(100_000)).ok).toBe(true);
    // Arrays count as levels too.
    expect(
      validateLinkConfig({ allLinks: {}, settings: [[[1]]] }, { maxDepth: 3 })
        .ok,
    ).toBe(false);
  });

  it('gives the same first problem through its zod view', () => {
    const value = { allLinks: { a: { url: 'x' }, b: {} }, macros: 1 };
    const result = StoredLinkConfigSchema.safeParse(value);
    expect(result.success).toBe(false);
    expect(
      result.error?.issues.map((i) => [i.path.join('.'), i.message]),
    ).toEqual([['allLinks.b.url', 'must be a string']]);
    expect(validateLinkConfig(value)).toMatchObject({
      error: 'allLinks.b.url must be a string',
    });
  });
});
