/**
 * The input guard, the result shape and our decisions (docs/expression-reference.md §1, §16, §18). Section
 * numbers (§) and rule ids (P, D) in the test names are that document's.
 */
import { describe, expect, it } from 'vitest';
import { ResolvedLinkSchema } from '../../schemas/index.js';
import { prepareConfig } from '../prepare/prepare.js';
import { resolve, toCherryPick } from './resolve.js';
import {
  DAY,
  NOW,
  configOf,
  example,
  exampleConfig,
  ids,
} from '../test-catalog.js';

describe('result shape (§16)', () => {
  it('returns id first, then the prepared fields', () => {
    const [d] = resolve(example, 'd', { now: NOW });
    expect(JSON.stringify(d)).toBe(
      '{"id":"d","url":"https://same.example","label":"Bravo","tags":["x","z"]}',
    );
    expect(ResolvedLinkSchema.safeParse(d).success).toBe(true);
  });

  it('returns fresh top-level objects', () => {
    const [first] = resolve(example, 'a');
    const [second] = resolve(example, 'a');
    expect(first).not.toBe(second);
    expect(first).toEqual(second);
  });

  it('sanitized urls come back as about:blank; safe urls unchanged with control characters', () => {
    const prepared = prepareConfig(
      configOf({
        bad: { url: ' JavaScript:alert(1)' },
        odd: { url: 'https://h/\u0001x ' },
      }),
    );
    expect(resolve(prepared, 'bad, odd').map((link) => link.url)).toEqual([
      'about:blank',
      'https://h/\u0001x ',
    ]);
  });

  it('cherry-pick: ids → links without id, integer-like ids first', () => {
    const prepared = prepareConfig(
      configOf({ z: { label: 'Z' }, 10: {}, 2: {} }),
    );
    const picked = toCherryPick(resolve(prepared, 'z, 10, 2'));
    expect(Object.keys(picked)).toEqual(['2', '10', 'z']);
    expect(picked['z']).toEqual({ url: 'https://z.example', label: 'Z' });
    expect(toCherryPick([])).toEqual({});
  });
});

describe('input guard (§1)', () => {
  it.each<[unknown, string]>([
    [undefined, ''],
    [null, ''],
    [5, ''],
    [['a'], ''],
    [{ toString: () => 'a' }, ''],
    ['', ''],
    ['   \u3000\ufeff', ''],
    ['  a  ', 'a'],
    ['\u00a0a', 'a'],
    ['!!!', ''],
  ])('%j → %j', (expression, expected) => {
    expect(ids(example, expression)).toBe(expected);
  });
});

describe('our decisions (§18)', () => {
  it('D1: :time: and :location: are built in; generate protocols yield nothing', () => {
    const prepared = prepareConfig(
      configOf(
        {
          recent: { createdAt: NOW - DAY, meta: { location: [1, 1] } },
          old: { createdAt: NOW - 9 * DAY },
        },
        { protocols: { web: { generate: true } } },
      ),
    );
    expect(ids(prepared, ':time:3d:')).toBe('recent');
    expect(ids(prepared, ':location:')).toBe('recent');
    expect(ids(prepared, ':web:')).toBe('');
  });

  it('D2: prototype-member search keys are unknown; non-string age/fields are absent', () => {
    const prepared = prepareConfig(
      configOf(
        { a: { label: 'hit', createdAt: NOW - 90 * DAY } },
        {
          searchPatterns: {
            p: { pattern: 'hit', options: { age: 30, fields: 5 } },
          },
        },
      ),
    );
    expect(ids(prepared, '/p/')).toBe('a');
    expect(ids(prepared, '/constructor/, /__proto__/, /toString/, /p/')).toBe(
      'a',
    );
  });

  it('D2: expansion over 64 KiB or 1024 tokens is ∅; fan-out ends quickly', () => {
    const config = exampleConfig();
    config['macros'] = {
      big: { linkItems: `a${' '.repeat(65_535)}` },
      f: { linkItems: '@f @f @f @f @f @f @f @f' },
    };
    const prepared = prepareConfig(config);
    expect(ids(prepared, '@big')).toBe('a');
    expect(ids(prepared, '@big b')).toBe('');
    expect(ids(prepared, '@f')).toBe('');
    expect(ids(prepared, 'a, @f')).toBe('');
  });

  it('D2: configs of any size and depth resolve', () => {
    const links: Record<string, Record<string, unknown>> = {};
    for (let i = 0; i < 20_000; i++)
      links[`k${i}`] = { tags: ['t'], meta: { a: [{ b: i }] } };
    const prepared = prepareConfig(configOf(links));
    expect(resolve(prepared, '.t *limit:2*').map((link) => link.id)).toEqual([
      'k0',
      'k1',
    ]);
  });

  it('D3: an exponential pattern for backtracking engines gives complete results', () => {
    const prepared = prepareConfig(
      configOf(
        Object.fromEntries(
          Array.from({ length: 20 }, (_, i) => [
            `l${i}`,
            { label: `${'x'.repeat(40)}${i % 2 ? 'y' : ''}` },
          ]),
        ),
        { searchPatterns: { evil: '(x|x)*y' } },
      ),
    );
    expect(ids(prepared, '/evil/l')).toBe('l1,l3,l5,l7,l9,l11,l13,l15,l17,l19');
  });

  it('D4: sorting does not depend on the process locale', () => {
    expect(ids(example, '.x | .y *sort*')).toBe('b,d,c,a');
  });

  it('D5: today starts at 00:00 UTC', () => {
    const prepared = prepareConfig(
      configOf({
        before: { createdAt: '2024-06-14T23:00:00Z' },
        after: { createdAt: '2024-06-15T00:30:00Z' },
      }),
    );
    expect(
      ids(prepared, ':time:today:', { now: Date.UTC(2024, 5, 15, 1) }),
    ).toBe('after');
  });
});

describe('never throws', () => {
  it('tolerates a hostile handler map and random source', () => {
    expect(
      ids(example, '.x *shuffle*, :x:', {
        handlers: null as never,
        random: () => {
          throw new Error('no');
        },
      }),
    ).toBe('');
  });
});
