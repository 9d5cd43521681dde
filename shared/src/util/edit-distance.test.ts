import { describe, expect, it } from 'vitest';
import { closestNames, editDistance } from './edit-distance.js';

describe('editDistance', () => {
  it('counts inserts, deletes and replacements', () => {
    expect(editDistance('nyc', 'nyc')).toBe(0);
    expect(editDistance('nyc', 'nyx')).toBe(1);
    expect(editDistance('nyc', 'ny')).toBe(1);
    expect(editDistance('ny', 'nyc')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('NYC', 'nyc')).toBe(3);
  });

  it('stops counting past the maximum', () => {
    expect(editDistance('kitten', 'sitting', 1)).toBe(2);
    expect(editDistance('a', 'abcdef', 2)).toBe(3);
    expect(editDistance('kitten', 'sitting', 3)).toBe(3);
  });

  it('is symmetric', () => {
    for (const [a, b] of [
      ['bridge', 'brigde'],
      ['coffee', 'cofe'],
      ['', 'x'],
    ] as const)
      expect(editDistance(a, b)).toBe(editDistance(b, a));
  });
});

describe('closestNames', () => {
  it('lists the close names, closest first, never the name itself', () => {
    expect(
      closestNames('nyx', ['paris', 'nyc', 'ny', 'nyx', 'tokyo'], {
        maxDistance: 1,
      }),
    ).toEqual(['nyc', 'ny']);
    expect(
      closestNames('brige', ['bridges', 'bridge'], { maxDistance: 2 }),
    ).toEqual(['bridge', 'bridges']);
    expect(closestNames('zzz', ['nyc'], { maxDistance: 1 })).toEqual([]);
    expect(
      closestNames('a', ['b', 'c', 'd', 'e'], { maxDistance: 1, limit: 2 }),
    ).toEqual(['b', 'c']);
  });
});
