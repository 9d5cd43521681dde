import { describe, expect, it } from 'vitest';
import {
  ConfigNameSchema,
  ExpressionSchema,
  PutConfigInputSchema,
  QueryInputSchema,
  SearchInputSchema,
} from './api.js';

describe('ConfigNameSchema', () => {
  it.each(['demo', 'a b', 'ünï/cødé%25', 'x'.repeat(256), '__proto__'])(
    'accepts %j',
    (name) => {
      expect(ConfigNameSchema.safeParse(name).success).toBe(true);
    },
  );
  it.each([
    '',
    'x'.repeat(257),
    'a\u0000b',
    'tab\there',
    'del\u007f',
    '.',
    '..',
  ])('rejects %j', (name) => {
    expect(ConfigNameSchema.safeParse(name).success).toBe(false);
  });
});

describe('PutConfigInputSchema', () => {
  it('accepts an If-Match value and If-None-Match *', () => {
    const parsed = PutConfigInputSchema.parse({
      name: 'n',
      config: { allLinks: {} },
      ifMatch: '"a-b"',
      ifNoneMatch: '*',
    });
    expect(parsed.ifMatch).toBe('"a-b"');
  });
  it('rejects an If-None-Match other than *', () => {
    const result = PutConfigInputSchema.safeParse({
      name: 'n',
      config: {},
      ifNoneMatch: '"a-b"',
    });
    expect(result.error?.issues[0]?.message).toMatch(/only "\*"/);
  });
});

describe('ExpressionSchema', () => {
  it('accepts 64 KiB and rejects one character more', () => {
    expect(ExpressionSchema.safeParse('a'.repeat(65_536)).success).toBe(true);
    expect(ExpressionSchema.safeParse('a'.repeat(65_537)).success).toBe(false);
  });
  it('rejects empty and non-string expressions', () => {
    expect(ExpressionSchema.safeParse('').success).toBe(false);
    expect(ExpressionSchema.safeParse(3).success).toBe(false);
  });
});

describe('SearchInputSchema', () => {
  it('defaults fields to all five and limit to 100', () => {
    expect(SearchInputSchema.parse({ q: 'car' })).toEqual({
      q: 'car',
      fields: ['label', 'url', 'tags', 'description', 'id'],
      limit: 100,
    });
  });
  it('clamps limit above 1000 and parses numeric strings', () => {
    expect(SearchInputSchema.parse({ tag: 'x', limit: '5000' }).limit).toBe(
      1000,
    );
    expect(SearchInputSchema.parse({ tag: 'x', limit: '7' }).limit).toBe(7);
  });
  it.each(['0', '-1', '1.5', 'abc', '1e3'])('rejects limit %j', (limit) => {
    expect(SearchInputSchema.safeParse({ tag: 'x', limit }).success).toBe(
      false,
    );
  });
  it('rejects an unknown field and names it', () => {
    const result = SearchInputSchema.safeParse({
      q: 'a',
      fields: 'label,rank',
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toContain('"rank"');
  });
  it('treats empty tag, q and regex as absent', () => {
    expect(
      SearchInputSchema.safeParse({ tag: '', q: '', regex: '' }).success,
    ).toBe(false);
    expect(SearchInputSchema.parse({ tag: '', q: 'x' }).tag).toBeUndefined();
  });
});

describe('QueryInputSchema', () => {
  it('keeps inline configs as the same reference', () => {
    const inline = { b: 1, allLinks: { z: { url: 'u' } } };
    const parsed = QueryInputSchema.parse({
      expression: '.x',
      configs: ['demo', inline],
    });
    expect(parsed.configs?.[1]).toBe(inline);
  });
  it('rejects more than 50 configs and non-config items', () => {
    const configs = Array.from({ length: 51 }, (_, i) => `c${i}`);
    expect(
      QueryInputSchema.safeParse({ expression: 'a', configs }).success,
    ).toBe(false);
    expect(
      QueryInputSchema.safeParse({ expression: 'a', configs: [3] }).success,
    ).toBe(false);
    expect(
      QueryInputSchema.safeParse({ expression: 'a', configs: [[]] }).success,
    ).toBe(false);
  });
});
