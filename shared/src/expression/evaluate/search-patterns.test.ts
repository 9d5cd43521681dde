/**
 * Search-pattern atoms (docs/expression-reference.md §8, §12). Section numbers (§) and rule ids (P, D) in the
 * test names are that document's.
 */
import { describe, expect, it } from 'vitest';
import { prepareConfig } from '../prepare/prepare.js';
import {
  parseAge,
  parseFieldString,
  parseSearchLimit,
} from './search-patterns.js';
import { DAY, HOUR, NOW, configOf, ids } from '../test-catalog.js';

const iso = (ms: number): string => new Date(ms).toISOString();

/** Links with distinct text in each searchable field. */
const fieldLinks = {
  k1: { label: 'needle in label' },
  k2: { url: 'https://needle.example' },
  k3: { tags: ['hay', 'needle'] },
  k4: { description: 'needle here' },
  needle: {},
  k6: { meta: { note: 'needle' }, createdAt: 'needle', guid: 'needle' },
};

const fields = prepareConfig(
  configOf(fieldLinks, {
    searchPatterns: {
      n: 'needle',
      N: 'NEEDLE',
      nl: { pattern: 'needle', options: { fields: 'l' } },
      nlt: { pattern: 'needle', options: { fields: 'l, t' } },
      nzz: { pattern: 'needle', options: { fields: 'zz' } },
      nnum: { pattern: 'needle', options: { fields: 30 } },
      p: 'needle',
      'my key': 'needle',
      empty: '(p|q)*',
    },
  }),
);

describe('search lookup and fields (§8.1, §8.2)', () => {
  it.each<[string, string]>([
    ['/n/', 'k1,k2,k3,k4,needle'],
    ['/N/', 'k1,k2,k3,k4,needle'],
    ['/n/l', 'k1'],
    ['/n/u', 'k2,needle'],
    ['/n/t', 'k3'],
    ['/n/d', 'k4'],
    ['/n/k', 'needle'],
    ['/n/a', 'k1,k2,k3,k4,needle'],
    ['/n/lk', 'k1,needle'],
    ['/n/L', 'k1,k2,k3,k4,needle'],
    ['/nl/', 'k1'],
    ['/nl/u', 'k2,needle'],
    ['/nlt/', 'k1,k3'],
    ['/nzz/', 'k1,k2,k3,k4,needle'],
    ['/nnum/', 'k1,k2,k3,k4,needle'],
    ['/p|l/', 'k1'],
    ['/p|q/l', 'k1,k2,k3,k4,needle'],
    ['/p|/', 'k1,k2,k3,k4,needle'],
    ['/my key/', 'k1,k2,k3,k4,needle'],
    ['/ my key /', ''],
    ['/nope/', ''],
    ['/empty/', 'k1,k2,k3,k4,needle,k6'],
    ['/empty/l', 'k1'],
    ['/empty/ltd', 'k1,k3,k4'],
    ['/empty/k', 'k1,k2,k3,k4,needle,k6'],
    ['/n/ + .needle', 'k3'],
  ])('%j → %j', (expression, expected) => {
    expect(ids(fields, expression)).toBe(expected);
  });

  it.each([
    'constructor',
    'toString',
    '__proto__',
    'valueOf',
    'hasOwnProperty',
  ])('a key naming an object member (%s) is unknown (D2, §12)', (key) => {
    expect(ids(fields, `/${key}/`)).toBe('');
    expect(ids(fields, `/${key}/, /n/k`)).toBe('needle');
  });

  it('parses field strings', () => {
    expect(parseFieldString('l, t')).toEqual({
      label: true,
      url: false,
      tags: true,
      description: false,
      id: false,
    });
    expect(Object.values(parseFieldString('LUT')).every(Boolean)).toBe(true);
    expect(Object.values(parseFieldString('a')).every(Boolean)).toBe(true);
  });
});

describe('5 search atoms per expression (§8.1)', () => {
  const config = prepareConfig(
    configOf(
      { k: { label: 'hit' } },
      {
        searchPatterns: { k: 'hit' },
        macros: { two: { linkItems: '/nope/, /nope/' } },
      },
    ),
  );
  it.each<[string, string]>([
    ['/nope/, /nope/, /nope/, /nope/, /k/', 'k'],
    ['/nope/, /nope/, /nope/, /nope/, /nope/, /k/', ''],
    ['/k/, /k/, /k/, /k/, /k/', 'k'],
    ['@two, @two, /k/', 'k'],
    ['@two, @two, /nope/, /k/', ''],
    ['/constructor/, /a/, /b/, /c/, /d/, /k/', ''],
  ])('%j → %j', (expression, expected) => {
    expect(ids(config, expression)).toBe(expected);
  });
});

describe('search matches the sanitized url (§8.2)', () => {
  const config = prepareConfig(
    configOf(
      {
        bad: { url: 'javascript:alert(1)', label: 'x' },
        good: { url: 'https://h.io/x', label: 'x' },
        bare: { url: 'http://h.io', label: 'x' },
      },
      { searchPatterns: { a: 'a', js: 'javascript', blank: '^about:blank$' } },
    ),
  );
  it.each<[string, string]>([
    ['/a/u', 'bad'],
    ['/a/', 'bad,bare'],
    ['/js/', ''],
    ['/blank/u', 'bad'],
  ])('%j → %j', (expression, expected) => {
    expect(ids(config, expression)).toBe(expected);
  });
});

describe('age option (§8.3)', () => {
  const links = {
    h2: { createdAt: NOW - 2 * HOUR },
    d2: { createdAt: iso(NOW - 2 * DAY) },
    d10: { createdAt: NOW - 10 * DAY },
    d50: { createdAt: iso(NOW - 50 * DAY) },
    future: { createdAt: iso(NOW + 5 * DAY) },
    undated: {},
    bad: { createdAt: 'soon' },
    metaOnly: { meta: { timestamp: NOW } },
    zero: { createdAt: 0 },
  };
  const patterns: Record<string, unknown> = {};
  for (const age of [
    '3h',
    '3d',
    '3D',
    '2w',
    '2M',
    '2m',
    '1y',
    ' 3d',
    '3 d',
    '0d',
    '3d ',
    'd',
  ]) {
    patterns[age] = { pattern: '.', options: { age } };
  }
  patterns['num'] = { pattern: '.', options: { age: 30 } };
  const config = prepareConfig(configOf(links, { searchPatterns: patterns }));
  const all = 'h2,d2,d10,d50,future,undated,bad,metaOnly,zero';
  it.each<[string, string]>([
    ['3h', 'h2,future'],
    ['3d', 'h2,d2,future'],
    ['3D', 'h2,d2,future'],
    ['2w', 'h2,d2,d10,future'],
    ['2M', 'h2,d2,d10,d50,future'],
    ['2m', 'h2,d2,d10,d50,future'],
    ['3 d', 'h2,d2,future'],
    ['1y', all],
    [' 3d', all],
    ['3d ', all],
    ['0d', all],
    ['d', all],
    ['num', all],
  ])('age %j → %j', (key, expected) => {
    expect(ids(config, `/${key}/`)).toBe(expected);
  });
  it('parses ages', () => {
    expect(parseAge('2M')).toBe(60 * DAY);
    expect(parseAge('1\u00a0h')).toBe(HOUR);
    expect(parseAge('x1h')).toBe(0);
    expect(parseAge('1\u212a')).toBe(0);
    expect(parseAge('99999999999999999999999999999999999999d')).toBeGreaterThan(
      0,
    );
    expect(parseAge(undefined)).toBe(0);
  });
});

describe('cap, sort and limit (§8.3)', () => {
  const links: Record<string, Record<string, unknown>> = {};
  for (let i = 0; i < 101; i++) {
    links[`n${String(i).padStart(3, '0')}`] = {
      label: 'hit',
      createdAt: NOW - i * HOUR,
    };
  }
  links['late'] = { label: 'hit', createdAt: NOW + DAY };
  const patterns = (options: Record<string, unknown>): unknown => ({
    pattern: 'hit',
    options,
  });
  const config = prepareConfig(
    configOf(links, {
      searchPatterns: {
        all: 'hit',
        newest: patterns({ sort: 'newest', limit: 1 }),
        oldest: patterns({ sort: 'oldest', limit: 2 }),
        neg: patterns({ limit: -98 }),
        negAll: patterns({ limit: -500 }),
        zero: patterns({ limit: 0 }),
        str: patterns({ limit: '3' }),
        float: patterns({ limit: 2.9 }),
        negFloat: patterns({ limit: -99.9 }),
        bool: patterns({ limit: true }),
        nan: patterns({ limit: 'abc' }),
        nul: patterns({ limit: null }),
        big: patterns({ limit: 1000 }),
      },
    }),
  );
  const first = (n: number): string =>
    Array.from({ length: n }, (_, i) => `n${String(i).padStart(3, '0')}`).join(
      ',',
    );
  it.each<[string, string]>([
    ['/all/', first(100)],
    ['/newest/', 'n000'],
    ['/oldest/', 'n099,n098'],
    ['/neg/', first(2)],
    ['/negAll/', ''],
    ['/zero/', ''],
    ['/str/', first(3)],
    ['/float/', first(2)],
    ['/negFloat/', first(1)],
    ['/bool/', first(1)],
    ['/nan/', ''],
    ['/nul/', first(100)],
    ['/big/', first(100)],
  ])('%j → ids', (expression, expected) => {
    expect(ids(config, expression)).toBe(expected);
  });
  it('reads limits', () => {
    expect(parseSearchLimit(undefined)).toBe(100);
    expect(parseSearchLimit('-2')).toBe(-2);
    expect(parseSearchLimit([5])).toBe(5);
    expect(parseSearchLimit({})).toBe(0);
  });

  it('sorts alpha by id with the en collation, newest/oldest by createdAt', () => {
    const sorted = prepareConfig(
      configOf(
        {
          b9: { label: 'z', createdAt: iso(NOW - DAY) },
          Alpha: { label: 'y', createdAt: NOW - 3 * DAY },
          b10: { label: 'x' },
          alpha: { label: 'w', createdAt: 'bad' },
          Zeta: { label: 'v', createdAt: NOW - 2 * DAY },
          old: { label: 'u', createdAt: -5 * DAY },
        },
        {
          searchPatterns: {
            alpha: { pattern: '', options: { sort: 'alpha' } },
            newest: { pattern: '', options: { sort: 'newest' } },
            oldest: { pattern: '', options: { sort: 'oldest' } },
            other: { pattern: '', options: { sort: 'label' } },
          },
        },
      ),
    );
    expect(ids(sorted, '/alpha/')).toBe('alpha,Alpha,b10,b9,old,Zeta');
    expect(ids(sorted, '/newest/')).toBe('b9,Zeta,Alpha,b10,alpha,old');
    expect(ids(sorted, '/oldest/')).toBe('old,b10,alpha,Alpha,Zeta,b9');
    expect(ids(sorted, '/other/')).toBe('b9,Alpha,b10,alpha,Zeta,old');
  });
});

describe('linear-time matching (D3)', () => {
  const config = prepareConfig(
    configOf(
      {
        long: { label: `${'x'.repeat(5000)}` },
        long2: { label: `${'x'.repeat(5000)}y` },
        sharp: { label: 'ſ' },
        kelvin: { label: '\u212a' },
        nbsp: { label: 'a\u00a0b' },
        cr: { label: 'a\rb' },
        café: { label: 'plain', tags: ['naïve'] },
      },
      {
        searchPatterns: {
          evil: '(x|x)*y',
          s: 's',
          k: 'k',
          ws: 'a\\sb',
          dot: 'a.b',
          uni: '\\p{L}é',
          tag: 'naï',
          look: '(?=x)x',
          uesc: '\\u0078',
        },
      },
    ),
  );
  it.each<[string, string]>([
    ['/evil/l', 'long2'],
    ['/s/l', 'sharp'],
    ['/k/l', 'kelvin'],
    ['/ws/l', 'cr'],
    ['/dot/l', 'nbsp,cr'],
    ['/uni/k', 'café'],
    ['/tag/t', 'café'],
    ['/look/', ''],
    ['/uesc/', ''],
  ])('%j → %j', (expression, expected) => {
    expect(ids(config, expression)).toBe(expected);
  });
  it('non-ASCII ids and tags are reachable only by search (§2)', () => {
    expect(ids(config, 'café')).toBe('');
    expect(ids(config, '.naïve')).toBe('');
  });
});
