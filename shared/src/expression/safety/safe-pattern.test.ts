/**
 * Which stored search patterns are accepted (docs/expression-reference.md §8.4). Section numbers (§) and rule
 * ids (P, D) in the test names are that document's.
 */
import { describe, expect, it } from 'vitest';
import { compileSafePattern, isSafePattern } from './safe-pattern.js';

describe('safety heuristic (§8.4)', () => {
  it.each([
    '(x+)+',
    '(x*)*',
    '(x{3})+',
    '(\\d+\\s?)+',
    '(.*x){5}',
    '(x+)+?',
    '(x+){2}',
    '(x+){2,}',
    '(x+){2,5}',
    '(?:xy)+',
    '(?<g>x)+',
    '(ftps?)+',
    '((x+)y)*',
    '(a(b)c?)?',
    '(x{1234567890,1})*',
  ])('rejects %j', (pattern) => {
    expect(isSafePattern(pattern)).toBe(false);
    expect(compileSafePattern(pattern)).toBeNull();
  });

  it.each(['(', '[', 'x{2,1}', '*x', '(?<n>x)(?<n>y)', 'a)'])(
    'rejects invalid JavaScript syntax %j',
    (pattern) => {
      expect(isSafePattern(pattern)).toBe(false);
    },
  );

  it.each([
    '(x|x)*',
    '(x|xx)+y',
    '(x)+',
    '((x))+',
    '(x|y|z)+$',
    '(x\\+)+',
    '(x[*])+',
    '\\(x+\\)+',
    'x{2,}',
    '(?=x)y',
    '(x+)',
    '(x+)y+',
    '([)+])+',
    '([]+])+',
    '([^]+])+',
    '(x\\{2\\})+',
    '(x+){,5}',
    '',
    'plain text',
  ])('accepts %j', (pattern) => {
    expect(isSafePattern(pattern)).toBe(true);
  });

  it.each([
    '(?=x)y',
    '\\u0041',
    '\\cA',
    '[^]',
    '[\\b]',
    '\\q',
    '\\e',
    '\\Z',
    '(x)\\1',
  ])(
    're2js refuses %j although the heuristic may accept it (D3)',
    (pattern) => {
      expect(compileSafePattern(pattern)).toBeNull();
    },
  );

  it('compiles accepted patterns case-insensitively', () => {
    const regex = compileSafePattern('ab(c|d)+');
    expect(regex?.test('xxABCD')).toBe(true);
    expect(regex?.test('abe')).toBe(false);
  });
});
