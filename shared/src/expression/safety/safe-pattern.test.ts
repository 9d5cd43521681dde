/**
 * Which stored search patterns are accepted (docs/expression-reference.md §8.4). Section numbers (§) and rule
 * ids (P, D) in the test names are that document's.
 */
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../schemas/limits.js';
import {
  compileLinear,
  compileSafePattern,
  isSafePattern,
  searchPatternProblem,
} from './safe-pattern.js';

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

  it('refuses a program larger than LIMITS.patternProgramMax, however short the pattern (D3)', () => {
    // a{1,N}b compiles to 2N + 2 steps: 1,000 is the largest accepted, 1,002 the next.
    expect(LIMITS.patternProgramMax).toBe(1000);
    const largest = compileLinear('a{1,499}b');
    expect('tooLarge' in largest ? largest : largest.programSize()).toBe(1000);
    expect(compileSafePattern('a{1,499}b')?.test('aab')).toBe(true);
    expect(compileLinear('a{1,500}b')).toEqual({ tooLarge: 1002 });
    expect(isSafePattern('a{1,1000}a{1,1000}b')).toBe(true);
    expect(compileSafePattern('a{1,1000}a{1,1000}b')).toBeNull();
    expect(searchPatternProblem('a{1,1000}a{1,1000}b')).toBe('too_large');
    expect(searchPatternProblem('(?=x)y')).toBe('unsupported');
    expect(searchPatternProblem('a{1,499}b')).toBeNull();
    // Everyday patterns stay far below it.
    for (const pattern of [
      '\\b(guide|city)\\s+\\w+',
      '[a-z]{2,30}\\s[a-z]{2,30}',
      '\\d{1,3}\\.\\d{1,3}',
      'https?://[^\\s/]+/\\S*',
    ]) {
      expect(compileSafePattern(pattern)).not.toBeNull();
    }
  });
});
