import type { Link } from '@linkconfig/shared';
import { describe, expect, it } from 'vitest';
import { allTags, findLinks } from './link-finder.js';
import type { FindOptions } from './link-finder.js';

const links: Record<string, Link> = {
  b: {
    url: 'https://b.example/bridge',
    label: 'Brooklyn Bridge',
    tags: ['nyc', 'bridge'],
  },
  a: {
    url: 'https://a.example',
    label: 'apple store',
    tags: ['nyc'],
    description: 'Fifth Avenue',
  },
  c: {
    url: 'https://c.example',
    label: 'Tower',
    tags: ['paris'],
    createdAt: '2024-01-02',
  },
  d: { url: 'https://d.example', tags: ['NYC'] },
};

const all: FindOptions = { text: '', tags: [], sort: 'config', touched: {} };

describe('findLinks', () => {
  it('finds every word in label, URL, id, description or tags, case ignored', () => {
    expect(findLinks(links, { ...all, text: 'BRIDGE' }).ids).toEqual(['b']);
    expect(findLinks(links, { ...all, text: 'fifth' }).ids).toEqual(['a']);
    expect(findLinks(links, { ...all, text: 'example nyc' }).ids).toEqual([
      'b',
      'a',
      'd',
    ]);
    expect(findLinks(links, { ...all, text: 'd.example' }).ids).toEqual(['d']);
    expect(findLinks(links, { ...all, text: 'nothing' }).ids).toEqual([]);
  });

  it('narrows to links with all chosen tags; tags keep their case', () => {
    expect(findLinks(links, { ...all, tags: ['nyc'] }).ids).toEqual(['b', 'a']);
    expect(findLinks(links, { ...all, tags: ['nyc', 'bridge'] }).ids).toEqual([
      'b',
    ]);
  });

  it('counts the tags of what is found, most frequent first', () => {
    const found = findLinks(links, { ...all, text: 'example' });
    expect(found.total).toBe(4);
    expect(found.facets).toEqual([
      { tag: 'nyc', count: 2 },
      { tag: 'bridge', count: 1 },
      { tag: 'NYC', count: 1 },
      { tag: 'paris', count: 1 },
    ]);
    expect(findLinks(links, { ...all, text: 'tower' }).facets).toEqual([
      { tag: 'paris', count: 1 },
    ]);
  });

  it('sorts by label (the id when none), by id, and recently changed first', () => {
    expect(findLinks(links, { ...all, sort: 'label' }).ids).toEqual([
      'a',
      'b',
      'd',
      'c',
    ]);
    expect(findLinks(links, { ...all, sort: 'id' }).ids).toEqual([
      'a',
      'b',
      'c',
      'd',
    ]);
    // Changed here first, then by createdAt, then the later in the config first.
    expect(
      findLinks(links, { ...all, sort: 'recent', touched: { a: 5 } }).ids,
    ).toEqual(['a', 'c', 'd', 'b']);
  });

  it('sorts by URL and by tags (links without tags last), either way round', () => {
    const noTags = { ...links, e: { url: 'https://a.example/e' } };
    expect(findLinks(noTags, { ...all, sort: 'url' }).ids).toEqual([
      'a',
      'e',
      'b',
      'c',
      'd',
    ]);
    expect(findLinks(noTags, { ...all, sort: 'tags' }).ids).toEqual([
      'd',
      'a',
      'b',
      'c',
      'e',
    ]);
    expect(
      findLinks(noTags, { ...all, sort: 'url', descending: true }).ids,
    ).toEqual(['d', 'c', 'b', 'e', 'a']);
    // The stored order is never touched.
    expect(Object.keys(noTags)).toEqual(['b', 'a', 'c', 'd', 'e']);
  });

  it('sees a new version of the links (every edit makes a new object)', () => {
    expect(findLinks(links, { ...all, text: 'zeta' }).ids).toEqual([]);
    const next = { ...links, z: { url: 'https://z.example', label: 'Zeta' } };
    expect(findLinks(next, { ...all, text: 'zeta' }).ids).toEqual(['z']);
  });
});

describe('allTags', () => {
  it('lists each tag once, sorted', () => {
    expect(allTags(links)).toEqual(['bridge', 'NYC', 'nyc', 'paris']);
  });
});
