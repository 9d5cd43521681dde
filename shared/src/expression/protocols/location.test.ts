/**
 * The `:location:` protocol (docs/expression-reference.md §10.3). Section numbers (§) and rule ids (P, D) in
 * the test names are that document's.
 */
import { describe, expect, it } from 'vitest';
import { prepareConfig } from '../prepare/prepare.js';
import { configOf, ids } from '../test-catalog.js';
import { haversine } from './location.js';

const config = prepareConfig(
  configOf({
    a: {},
    d: { meta: { location: [10, 20] } },
    e: { meta: { location: [10.01, 20.01] } },
    str: { meta: { location: ['10', '20'] } },
    three: { meta: { location: [10, 20, 0] } },
    one: { meta: { location: [10] } },
    obj: { meta: { location: { lat: 10, lng: 20 } } },
    far: { meta: { location: [-33.9, 151.2] } },
  }),
);

describe(':location: (§10.3)', () => {
  it.each<[string, string]>([
    [':location:', 'd,e,far'],
    [':location:radius:10,20:1km:', 'd'],
    [':location:radius:10,20:2km:', 'd,e'],
    [':location:radius:10,20:2KM:', 'd,e'],
    [':location:radius:10,20:1mi:', 'd,e'],
    [':location:radius:10,20:0.5mi:', 'd'],
    [':location:radius:10,20:1 km:', ''],
    [':location:radius:10,20:1:', ''],
    [':location:radius:10,20:-1km:', ''],
    [':location:radius:10,20:0km:', 'd'],
    [':location:radius:10abc,20x:1km:', 'd'],
    [':location:radius:10,\u00a020:1km:', 'd'],
    [':location:radius: 10,20:1km:', ''],
    [':location:radius:10,20,30:1km:', ''],
    [':location:radius:x,20:1km:', ''],
    [':location:radius:10,20:', ''],
    [':location:RADIUS:10,20:1km:', ''],
    [':location:bbox:10,20:9,19:', 'd'],
    [':location:bbox:9,19:10,20:', 'd'],
    [':location:bbox:9,19:11,21:', 'd,e'],
    [':location:bbox:-90,-180:90,180:', 'd,e,far'],
    [':location:bbox:10,20:', ''],
    [':location:box:10,20:9,19:', ''],
    [':location::', ''],
    [':location:radius:-33.9,151.2:20000km:', 'd,e,far'],
  ])('%j → %j', (expression, expected) => {
    expect(ids(config, expression)).toBe(expected);
  });

  it('computes haversine distances', () => {
    expect(haversine([0, 0], [0, 0], 6371)).toBe(0);
    expect(haversine([0, 0], [0, 180], 6371)).toBeCloseTo(Math.PI * 6371, 6);
    expect(haversine([10, 20], [10.01, 20.01], 6371)).toBeGreaterThan(1);
    expect(haversine([10, 20], [10.01, 20.01], 6371)).toBeLessThan(2);
  });
});
