import { describe, expect, it } from 'vitest';
import {
  etagOf,
  matchesStrongly,
  matchesWeakly,
  parseEntityTags,
} from './etag.js';

describe('etagOf', () => {
  it('is the version and the update time in base 36, quoted', () => {
    expect(etagOf({ version: 71, updatedAt: '2026-01-02T03:04:05.678Z' })).toBe(
      `"1z-${Date.parse('2026-01-02T03:04:05.678Z').toString(36)}"`,
    );
  });
});

describe('parseEntityTags', () => {
  it.each([
    ['*', '*'],
    [' * ', '*'],
    ['"a"', ['"a"']],
    ['"a", W/"b" ,"c"', ['"a"', 'W/"b"', '"c"']],
    ['"a",,"b",', ['"a"', '"b"']],
    ['""', ['""']],
  ])('parses %j', (value, expected) => {
    expect(parseEntityTags(value)).toEqual(expected);
  });

  it.each(['a', '"a" "b"', '"a', ',', '', '*,"a"', 'W/a'])(
    'refuses %j',
    (value) => {
      expect(parseEntityTags(value)).toBeNull();
    },
  );
});

describe('matching', () => {
  it('compares strongly for If-Match: a weak tag never matches', () => {
    expect(matchesStrongly(['"x"', '"a"'], '"a"')).toBe(true);
    expect(matchesStrongly(['W/"a"'], '"a"')).toBe(false);
    expect(matchesStrongly('*', '"a"')).toBe(true);
  });
  it('compares weakly for If-None-Match', () => {
    expect(matchesWeakly(['W/"a"'], '"a"')).toBe(true);
    expect(matchesWeakly(['"b"'], '"a"')).toBe(false);
  });
});
