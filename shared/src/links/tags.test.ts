import { describe, expect, it } from 'vitest';
import {
  droppedTags,
  normalizeTag,
  normalizeTags,
  tagsFromText,
} from './tags.js';

describe('the tag rule', () => {
  it('lower-cases, removes accents and folds other characters to one _', () => {
    expect(
      ['Featured', 'Web Dev', 'C++', 'Café', 'été/2024', 'road-trip'].map(
        normalizeTag,
      ),
    ).toEqual(['featured', 'web_dev', 'c', 'cafe', 'ete_2024', 'road_trip']);
  });

  it('leaves nothing of a tag without a-z, 0-9 or _', () => {
    expect(normalizeTag('日本語')).toBe('');
    expect(normalizeTag(' -- ')).toBe('');
  });

  it('drops empty tags and repeats, keeping the first order', () => {
    expect(normalizeTags(['Car', 'car', '日本語', 'Bike', 'CAR'])).toEqual([
      'car',
      'bike',
    ]);
    expect(tagsFromText(' Featured, car,, featured , new york')).toEqual([
      'featured',
      'car',
      'new_york',
    ]);
  });

  it('names the typed tags it would drop', () => {
    expect(droppedTags('car, 日本語,, --, Bike')).toEqual(['日本語', '--']);
    expect(droppedTags('car, Bike')).toEqual([]);
  });
});
