import { describe, expect, it } from 'vitest';
import {
  checkConfigName,
  checkLinkId,
  checkMacroName,
  checkPattern,
  checkPatternFields,
  checkPatternKey,
  checkPatternLimit,
  checkRegExp,
  checkTags,
  checkUrl,
  parseSettings,
  storedTagsNote,
} from './input-checks.js';

describe('checkUrl', () => {
  it('accepts web, mail and phone addresses', () => {
    for (const url of [
      'https://example.com/page',
      'http://localhost:3000/x',
      'mailto:someone@example.com',
      'tel:+123',
      'ftp://files.example.com',
    ])
      expect(checkUrl(url), url).toBeNull();
  });

  it('names the blocked scheme of a script URL', () => {
    expect(checkUrl('javascript:alert(1)')).toMatch(
      /^Links starting with "javascript:" are blocked/,
    );
    expect(checkUrl(' JaVa\tScript:alert(1)')).toMatch(/"JaVaScript:"/);
    expect(checkUrl('data:text/html,<b>x</b>')).toMatch(/"data:" are blocked/);
  });

  it('asks for a scheme when the address has none', () => {
    expect(checkUrl('example.com/page')).toBe(
      'Add the scheme at the start, for example https://example.com/page.',
    );
    expect(checkUrl('//example.com/x')).toMatch(/https:\/\/example\.com\/x/);
    expect(checkUrl('example.com:8080/page')).toMatch(/^Add the scheme/);
    expect(checkUrl('localhost:3000')).toMatch(/^Add the scheme/);
  });

  it('rejects an empty URL and one the browser cannot read', () => {
    expect(checkUrl('  ')).toMatch(/^Enter a URL/);
    expect(checkUrl('https://exa mple.com')).toBe('This is not a valid URL.');
  });
});

describe('names that expressions refer to', () => {
  it('accepts letters, digits and underscores', () => {
    expect(checkLinkId('brooklyn_bridge2')).toBeNull();
    expect(checkMacroName('cars')).toBeNull();
    expect(checkPatternKey('bridges')).toBeNull();
  });

  it('rejects a dash, which expressions read as "without"', () => {
    expect(checkLinkId('my-link')).toMatch(/"without"/);
    expect(checkMacroName('my-macro')).toMatch(/"without"/);
  });

  it('rejects spaces, other characters and reserved keys', () => {
    expect(checkLinkId('a b')).toMatch(/spaces/);
    expect(checkLinkId('café')).toMatch(/only letters, digits and _/);
    expect(checkLinkId('constructor')).toMatch(/reserved/);
    expect(checkLinkId('')).toMatch(/^Enter an id/);
  });

  it('rejects a slash or a bar in a search-pattern key', () => {
    expect(checkPatternKey('a/b')).toMatch(/first slash/);
    expect(checkPatternKey('a|b')).toMatch(/field letters/);
  });
});

describe('checkTags', () => {
  it('accepts what the one tag rule can keep, empty parts ignored', () => {
    expect(checkTags('car, classic,')).toBeNull();
    expect(checkTags('Featured, new york, road-trip, Café')).toBeNull();
  });

  it('names the first tag the rule would drop', () => {
    expect(checkTags('car, 日本語, --')).toMatch(/^Tag "日本語" has no letter/);
  });
});

describe('storedTagsNote', () => {
  it('says what is stored when the rule changes the typed tags', () => {
    expect(storedTagsNote('Featured, new york, car, featured')).toBe(
      'Stored as: featured, new_york, car',
    );
    expect(storedTagsNote('car, classic')).toBeNull();
    expect(storedTagsNote('')).toBeNull();
  });
});

describe('checkConfigName', () => {
  it('uses the server rule for names', () => {
    expect(checkConfigName('team links')).toBeNull();
    expect(checkConfigName('')).toMatch(/^Enter a name/);
    expect(checkConfigName('x'.repeat(257))).toMatch(/at most 256/);
    expect(checkConfigName('a\u0001b')).toMatch(/control characters/);
  });
});

describe('search patterns', () => {
  it('accepts a safe regular expression', () => {
    expect(checkPattern('bridge')).toBeNull();
    expect(checkPattern('(x|y)+$')).toBeNull();
  });

  it('rejects invalid syntax and nested repetition', () => {
    expect(checkPattern('(')).toMatch(
      /^This is not a valid regular expression/,
    );
    expect(checkPattern('(a+)+')).toMatch(/can take very long/);
    expect(checkRegExp('[')).toMatch(/not a valid regular expression/);
  });

  it('checks field letters and the limit', () => {
    expect(checkPatternFields('l, t')).toBeNull();
    expect(checkPatternFields('x')).toMatch(/l \(label\)/);
    expect(checkPatternLimit(' 5 ')).toBeNull();
    expect(checkPatternLimit('-2')).toBeNull();
    expect(checkPatternLimit('many')).toMatch(/whole number/);
  });
});

describe('parseSettings', () => {
  it('reads a JSON object, and empty text as no settings', () => {
    expect(parseSettings('{"listType": "ul"}')).toEqual({
      ok: true,
      settings: { listType: 'ul' },
    });
    expect(parseSettings('  ')).toEqual({ ok: true, settings: undefined });
  });

  it('explains invalid JSON and values that are not objects', () => {
    const broken = parseSettings('{"listType": }');
    expect(broken.ok).toBe(false);
    expect(!broken.ok && broken.problem).toMatch(/^This is not valid JSON/);
    expect(parseSettings('[1]')).toEqual({
      ok: false,
      problem: 'Settings must be a JSON object, such as {"listType": "ul"}.',
    });
  });
});
