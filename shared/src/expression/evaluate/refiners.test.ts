/**
 * Refiners (docs/expression-reference.md §9). Section numbers (§) and rule ids (P, D) in the test names are
 * that document's.
 */
import { describe, expect, it } from 'vitest';
import { prepareConfig } from '../prepare/prepare.js';
import { configOf, example, ids } from '../test-catalog.js';

describe('refiners on the example catalog (§9)', () => {
  it.each<[string, string]>([
    ['.x *sort*', 'b,d,a'],
    ['.x *sort:*', 'b,d,a'],
    ['.x *sort:label*', 'b,d,a'],
    ['.x *sort:id*', 'a,b,d'],
    ['.x *sort:LABEL*', 'a,b,d'],
    ['.x *sort:rank*', 'a,b,d'],
    ['.x *sort:toString*', 'a,b,d'],
    ['.x *sort:url*', 'a,b,d'],
    ['.z, .y *sort*', 'd,e,b,c'],
    ['.x *reverse*', 'd,b,a'],
    ['.x *limit:2*', 'a,b'],
    ['.x *limit:0*', ''],
    ['.x *limit:-0*', ''],
    ['.x *limit:-1*', 'a,b,d'],
    ['.x *limit*', 'a,b,d'],
    ['.x *limit:abc*', 'a,b,d'],
    ['.x *limit:2.9*', 'a,b'],
    ['.x *limit:1abc*', 'a'],
    ['.x *limit:0x10*', ''],
    ['.x *limit: +2*', 'a,b'],
    ['.x *limit:99*', 'a,b,d'],
    ['.x *limit:2:9*', 'a,b'],
    ['.x *skip:1*', 'b,d'],
    ['.x *skip:3*', ''],
    ['.x *skip:9*', ''],
    ['.x *skip:0*', 'a,b,d'],
    ['.x *skip:-1*', 'a,b,d'],
    ['.x *skip*', 'a,b,d'],
    ['.z *unique*', 'd'],
    ['.x *unique*', 'a,b,d'],
    ['.x *unique:rank*', 'a'],
    ['.x *unique:id*', 'a,b,d'],
    ['.x *sort* *skip:1* *limit:1*', 'd'],
    ['.x * sort *', 'a,b,d'],
    ['.x *Sort*', 'a,b,d'],
    ['.x *nope*', 'a,b,d'],
    ['(.x *limit:1*) | .z', 'a,d,e'],
    ['(.x *reverse*), .z *reverse*', 'd,b,a,e'],
  ])('%j → %j', (expression, expected) => {
    expect(ids(example, expression)).toBe(expected);
  });

  it('applies at most 10 refiners per segment, counting per segment', () => {
    const ten = ' *reverse*'.repeat(10);
    const eleven = ' *reverse*'.repeat(11);
    expect(ids(example, `.x${ten}`)).toBe('a,b,d');
    expect(ids(example, `.x${eleven}`)).toBe('a,b,d');
    expect(ids(example, `.x${' *reverse*'.repeat(9)}`)).toBe('d,b,a');
    expect(ids(example, `.x${' *reverse*'.repeat(10)} *limit:1*`)).toBe(
      'a,b,d',
    );
    expect(ids(example, `.x${' *reverse*'.repeat(9)} *limit:1*`)).toBe('d');
    expect(ids(example, `.x${eleven}, .z *reverse*`)).toBe('a,b,d,e');
  });
});

describe('sort collation and value texts (§9, D4)', () => {
  const labels = [
    'Zeta',
    'éclair',
    'beta',
    'b9',
    'Eclair',
    'apple pie',
    'b10',
    'Apple',
    'Alpha',
    'alpha',
  ];
  const config = prepareConfig(
    configOf(
      Object.fromEntries(labels.map((label, i) => [`l${i}`, { label }])),
    ),
  );
  it('orders labels with the en collation', () => {
    const sorted = ids(config, 'l0|l1|l2|l3|l4|l5|l6|l7|l8|l9 *sort*')
      .split(',')
      .map((id) => labels[Number(id.slice(1))]);
    expect(sorted).toEqual([
      'alpha',
      'Alpha',
      'Apple',
      'apple pie',
      'b10',
      'b9',
      'beta',
      'Eclair',
      'éclair',
      'Zeta',
    ]);
  });

  const values = prepareConfig(
    configOf({
      n100: { createdAt: 100, tags: ['b', 'a'] },
      n7: { createdAt: 7, tags: ['a'] },
      n99: { createdAt: 99 },
      nul: { createdAt: null, tags: [] },
      obj: { createdAt: { y: 1 }, tags: ['a', 'b'] },
    }),
  );
  it.each<[string, string]>([
    ['n100|n7|n99|nul *sort:createdAt*', 'nul,n100,n7,n99'],
    ['n100|n7|obj|nul *sort:tags*', 'nul,n7,obj,n100'],
    ['obj|n7 *sort:createdAt*', 'obj,n7'], // '[object Object]' sorts before digits
    ['n100|obj|n7 *unique:tags*', 'n100,obj,n7'],
    ['n7|n100|obj *unique:tags*', 'n7,n100,obj'],
    ['nul|n99 *unique:createdAt*', 'nul,n99'],
  ])('%j → %j', (expression, expected) => {
    expect(ids(values, expression)).toBe(expected);
  });

  it('unique collapses blocked urls into one', () => {
    const blocked = prepareConfig(
      configOf({
        p: { url: 'javascript:a()' },
        q: { url: 'data:text/html,x' },
        r: { url: 'https://r.example' },
      }),
    );
    expect(ids(blocked, 'p|q|r *unique*')).toBe('p,r');
  });
});

describe('shuffle (§9)', () => {
  it('is a permutation drawn from the injected random source', () => {
    const sequence = [0.9, 0.1, 0.5, 0.3];
    let i = 0;
    const random = (): number => sequence[i++ % sequence.length] ?? 0;
    const result = ids(example, '.x | .y | .z *shuffle*', { random });
    expect(result.split(',').sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
    i = 0;
    expect(ids(example, '.x | .y | .z *shuffle*', { random })).toBe(result);
  });
  it('with random() = 0 rotates as Fisher–Yates does', () => {
    expect(ids(example, '.x *shuffle*', { random: () => 0 })).toBe('b,d,a');
  });
  it('tolerates a random source outside [0, 1)', () => {
    const result = ids(example, '.x *shuffle*', { random: () => 7 });
    expect(result.split(',').sort()).toEqual(['a', 'b', 'd']);
    const nan = ids(example, '.x *shuffle*', { random: () => NaN });
    expect(nan.split(',').sort()).toEqual(['a', 'b', 'd']);
  });
});

describe('refiners on large lists (ranked and counting sorts, value ids)', () => {
  const words = ['alpha', 'Alpha', 'éclair', 'Eclair', 'b10', 'b9', 'beta', ''];
  const links: Record<string, Record<string, unknown>> = {};
  for (let i = 0; i < 5000; i++) {
    const label = `${words[(i * 7) % words.length] ?? ''}${i % 3 === 0 ? '' : String((i * 13) % 50)}`;
    links[`k${i}`] = i % 11 === 0 ? {} : { label, tags: [`g${i % 4}`] };
  }
  const config = prepareConfig(configOf(links));
  const collator = new Intl.Collator('en');
  const labelOf = (id: string): string =>
    (links[id]?.['label'] as string | undefined) ?? '';
  const referenceSort = (list: string[]): string =>
    list
      .slice()
      .sort((a, b) => collator.compare(labelOf(a), labelOf(b)))
      .join(',');
  const referenceUnique = (list: string[]): string => {
    const seen = new Set<string>();
    return list
      .filter((id) => {
        const key = labelOf(id);
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      })
      .join(',');
  };

  it.each([
    ['.g1 | .g2 | .g3 | .g0 *reverse*', 'k1'],
    ['.g2', 'k2'],
    ['.g0 | .g1 | .g2 | .g3', 'k0'],
  ])('%j sorts like the collator and uniques like a Set', (expression) => {
    const base = ids(config, expression).split(',');
    expect(ids(config, `${expression} *sort*`)).toBe(referenceSort(base));
    expect(ids(config, `${expression} *unique:label*`)).toBe(
      referenceUnique(base),
    );
  });

  it('small lists sort the same once ranks exist', () => {
    ids(config, '.g0 | .g1 | .g2 | .g3 *sort*');
    const some = ['k5', 'k500', 'k17', 'k2999', 'k1001', 'k33'];
    for (const limit of [150, 300]) {
      const head = `${some.join(' | ')} | .g1 *limit:${limit}*`;
      const base = ids(config, head).split(',');
      expect(ids(config, `${head} *sort*`)).toBe(referenceSort(base));
    }
  });

  it('sort by id and unique by id or a missing field on large lists', () => {
    const base = ids(config, '.g1 | .g2').split(',');
    expect(ids(config, '.g1 | .g2 *sort:id*')).toBe(
      base
        .slice()
        .sort((a, b) => collator.compare(a, b))
        .join(','),
    );
    expect(ids(config, '.g1 | .g2 *unique:id*')).toBe(base.join(','));
    expect(ids(config, '.g1 | .g2 *unique:rank*')).toBe(base[0]);
    expect(ids(config, '.g1 | .g2 *sort:rank*')).toBe(base.join(','));
  });
});
