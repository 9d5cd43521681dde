import { describe, expect, it } from 'vitest';
import { anyNameMatches, nameMatches } from './name-patterns.js';

describe('name patterns', () => {
  it('matches a name exactly without *', () => {
    expect(nameMatches('docs', 'docs')).toBe(true);
    expect(nameMatches('docs', 'docs2')).toBe(false);
    expect(nameMatches('docs', 'doc')).toBe(false);
  });

  it('lets * stand for any run, / included, possibly empty', () => {
    expect(nameMatches('site-a/*', 'site-a/menu')).toBe(true);
    expect(nameMatches('site-a/*', 'site-a/x/y')).toBe(true);
    expect(nameMatches('site-a/*', 'site-a/')).toBe(true);
    expect(nameMatches('site-a/*', 'site-ab/menu')).toBe(false);
    expect(nameMatches('*', 'anything/at/all')).toBe(true);
    expect(nameMatches('*-menu', 'a/b-menu')).toBe(true);
    expect(nameMatches('a*b*c', 'axxbyyc')).toBe(true);
    expect(nameMatches('a*b*c', 'axxbyy')).toBe(false);
  });

  it('treats other characters literally (no regular expression)', () => {
    expect(nameMatches('a.b', 'axb')).toBe(false);
    expect(nameMatches('a?', 'ab')).toBe(false);
    expect(nameMatches('(x)', '(x)')).toBe(true);
  });

  it('answers for any of several patterns', () => {
    expect(anyNameMatches(['docs', 'site-a/*'], 'site-a/x')).toBe(true);
    expect(anyNameMatches([], 'x')).toBe(false);
  });
});
