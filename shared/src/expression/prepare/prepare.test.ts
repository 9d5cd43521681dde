/**
 * Config preparation (docs/expression-reference.md §13). Section numbers (§) and rule ids (P, D) in the test
 * names are that document's.
 */
import { describe, expect, it } from 'vitest';
import {
  ENTRIES_PER_STEP,
  prepareConfig,
  prepareConfigInSlices,
} from './prepare.js';
import { configOf, ids } from '../test-catalog.js';

describe('config preparation (§13)', () => {
  it('drops hyphenated ids, non-object links and non-string urls; keeps ""', () => {
    const prepared = prepareConfig({
      allLinks: {
        ok: { url: 'https://ok' },
        'a-b': { url: 'https://x' },
        nul: null,
        arr: [{ url: 'x' }],
        str: 'https://x',
        num: 5,
        nourl: { label: 'x' },
        numurl: { url: 5 },
        empty: { url: '' },
      },
    });
    expect(prepared.ids).toEqual(['ok', 'empty']);
    expect(ids(prepared, 'a-b')).toBe('');
  });

  it('keeps only known fields, typed, in §16 order', () => {
    const prepared = prepareConfig({
      allLinks: {
        full: {
          meta: { k: 1 },
          rank: 5,
          allowedSchemes: ['https', '', 3],
          createdAt: null,
          guid: 'g',
          hooks: ['h1', 2, 'h2'],
          thumbnail: 'javascript:t',
          description: 'desc',
          targetWindow: '_blank',
          altText: 'alt',
          image: 'data:x',
          cssClass: 'c',
          tags: ['t1', 't-2', 3, 't1', 'x'],
          label: 'L',
          url: 'https://u',
          extra: { nested: true },
        },
        typed: {
          url: 'https://u',
          label: 5,
          tags: 'x',
          hooks: 'h',
          allowedSchemes: ['', 5],
          meta: ['m'],
          guid: 1,
        },
        emptyArrays: { url: 'u', tags: ['a-b'], hooks: [] },
      },
    });
    const full = prepared.links.get('full');
    expect(Object.keys(full ?? {})).toEqual([
      'url',
      'label',
      'tags',
      'cssClass',
      'image',
      'altText',
      'targetWindow',
      'description',
      'thumbnail',
      'hooks',
      'guid',
      'createdAt',
      'allowedSchemes',
      'meta',
    ]);
    expect(full).toMatchObject({
      tags: ['t1', 't1', 'x'],
      image: 'about:blank',
      thumbnail: 'about:blank',
      hooks: ['h1', 'h2'],
      createdAt: null,
      allowedSchemes: ['https'],
    });
    expect(prepared.links.get('typed')).toEqual({ url: 'https://u' });
    expect(prepared.links.get('emptyArrays')).toEqual({
      url: 'u',
      tags: [],
      hooks: [],
    });
    expect(prepared.tagIndex.get('t1')).toEqual(['full']);
    expect(ids(prepared, '.t1')).toBe('full');
    expect(ids(prepared, '.t')).toBe('');
  });

  it('removes blocked keys at every depth, including meta', () => {
    const config = JSON.parse(
      '{"allLinks":{"__proto__":{"url":"p"},"constructor":{"url":"c"},"prototype":{"url":"q"},' +
        '"ok":{"url":"u","meta":{"n":{"constructor":1,"k":2,"deep":[{"__proto__":{"x":1},"y":2}]},"prototype":3},' +
        '"createdAt":{"__proto__":1,"v":1}}},' +
        '"settings":{"a":{"__proto__":{"polluted":true},"b":1}},"protocols":{"constructor":{},"web":{}}}',
    ) as unknown;
    const prepared = prepareConfig(config);
    expect(prepared.ids).toEqual(['ok']);
    const ok = prepared.links.get('ok');
    expect(ok?.meta).toEqual({ n: { k: 2, deep: [{ y: 2 }] } });
    expect(ok?.createdAt).toEqual({ v: 1 });
    expect(prepared.settings).toEqual({ a: { b: 1 } });
    expect([...prepared.protocolNames]).toEqual(['web']);
    expect(ids(prepared, '__proto__, constructor, prototype, ok')).toBe('ok');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('handles deeply nested meta without recursion limits (D2)', () => {
    let deep: Record<string, unknown> = { leaf: 1, constructor: 2 };
    for (let i = 0; i < 100_000; i++) deep = { n: deep };
    const prepared = prepareConfig(configOf({ a: { meta: deep } }));
    let node = prepared.links.get('a')?.meta as Record<string, unknown>;
    for (let i = 0; i < 100_000; i++)
      node = node['n'] as Record<string, unknown>;
    expect(node).toEqual({ leaf: 1 });
  });

  it('sanitizes meta values whose key ends in url, any case, top level only', () => {
    const prepared = prepareConfig(
      configOf({
        a: {
          meta: {
            url: 'javascript:x',
            homeUrl: 'data:x',
            imageURL: 'vbscript:x',
            urlish: 'javascript:x',
            n: { url: 'javascript:x' },
            countUrl: 5,
          },
        },
      }),
    );
    expect(prepared.links.get('a')?.meta).toEqual({
      url: 'about:blank',
      homeUrl: 'about:blank',
      imageURL: 'about:blank',
      urlish: 'javascript:x',
      n: { url: 'javascript:x' },
      countUrl: 5,
    });
  });

  it('keeps valid macros and safe search patterns only', () => {
    const prepared = prepareConfig({
      allLinks: { a: { url: 'u', label: 'hit' } },
      macros: {
        ok: { linkItems: 'a' },
        empty: { linkItems: '' },
        'no-pe': { linkItems: 'a' },
        num: { linkItems: 5 },
        str: 'a',
        nul: null,
      },
      searchPatterns: {
        s: 'hit',
        o: { pattern: 'hit', options: { limit: 1 } },
        'x-y': 'hit',
        unsafe: '(x+)+',
        invalid: '(',
        re2: '(?=h)hit',
        num: 5,
        obj: { pattern: 5 },
      },
    });
    expect([...prepared.macros.keys()]).toEqual(['ok', 'empty']);
    expect([...prepared.searchPatterns.keys()]).toEqual(['s', 'o']);
    expect(ids(prepared, '/s/, /o/')).toBe('a');
    expect(ids(prepared, '/unsafe/, /invalid/, /re2/, /x-y/')).toBe('');
  });

  it('never throws; missing or non-object allLinks means no links (D2)', () => {
    for (const config of [
      undefined,
      null,
      5,
      'x',
      [],
      {},
      { allLinks: 5 },
      { allLinks: [] },
    ]) {
      const prepared = prepareConfig(config);
      expect(prepared.ids).toEqual([]);
      expect(ids(prepared, 'a, .x, /k/, :time:3d:')).toBe('');
    }
  });

  it('a throwing getter drops only that link', () => {
    const allLinks: Record<string, unknown> = { a: { url: 'a' } };
    Object.defineProperty(allLinks, 'bad', {
      enumerable: true,
      get() {
        throw new Error('no');
      },
    });
    allLinks['c'] = { url: 'c' };
    expect(prepareConfig({ allLinks }).ids).toEqual(['a', 'c']);
  });

  it('builds the position map in catalog order', () => {
    const prepared = prepareConfig(configOf({ b: {}, 2: {}, a: {} }));
    expect([...prepared.position]).toEqual([
      ['2', 0],
      ['b', 1],
      ['a', 2],
    ]);
  });
});

describe('preparation in slices', () => {
  /** A config of `n` links with tags, a macro and a search pattern. */
  const big = (n: number) => ({
    allLinks: Object.fromEntries(
      Array.from({ length: n }, (_, i) => [
        `l${i}`,
        { url: `https://x/${i}`, label: `L${i}`, tags: [`t${i % 7}`] },
      ]),
    ),
    macros: { m: { linkItems: '.t1' } },
    searchPatterns: { p: 'L1|L2' },
  });

  it('gives the same prepared config as preparing at once', async () => {
    const config = big(500);
    const sliced = await prepareConfigInSlices(config, {
      sliceMs: 0,
      pause: () => Promise.resolve(),
    });
    expect(sliced).toEqual(prepareConfig(config));
  });

  it('pauses every ENTRIES_PER_STEP links once the slice time is spent', async () => {
    let pauses = 0;
    await prepareConfigInSlices(big(ENTRIES_PER_STEP * 10), {
      sliceMs: 0,
      pause: () => Promise.resolve(void (pauses += 1)),
    });
    expect(pauses).toBe(9);
  });

  it('never throws, in slices too', async () => {
    const hostile = {
      get allLinks(): never {
        throw new Error('boom');
      },
    };
    await expect(
      prepareConfigInSlices(hostile, {
        sliceMs: 0,
        pause: () => Promise.resolve(),
      }),
    ).resolves.toEqual(prepareConfig(hostile));
  });
});
