/**
 * The `:time:` protocol (docs/expression-reference.md §10.2). Section numbers (§) and rule ids (P, D) in the
 * test names are that document's.
 */
import { describe, expect, it } from 'vitest';
import { prepareConfig } from '../prepare/prepare.js';
import { DAY, HOUR, NOW, configOf, ids } from '../test-catalog.js';
import { parseDuration, startOfUtcDay } from './time.js';

const iso = (ms: number): string => new Date(ms).toISOString();

const config = prepareConfig(
  configOf({
    p1: { createdAt: iso(NOW - DAY) },
    p4: { createdAt: NOW - 4 * DAY },
    p10: { createdAt: iso(NOW - 10 * DAY) },
    fut: { createdAt: iso(NOW + 30 * DAY) },
    metaWins: {
      createdAt: iso(NOW - DAY),
      meta: { timestamp: NOW - 20 * DAY },
    },
    metaStr: {
      createdAt: NOW - 20 * DAY,
      meta: { timestamp: iso(NOW - 2 * HOUR) },
    },
    metaZero: { createdAt: iso(NOW - DAY), meta: { timestamp: 0 } },
    metaBad: { createdAt: NOW - 2 * HOUR, meta: { timestamp: 'nope' } },
    undated: {},
    nul: { createdAt: null },
    bad: { createdAt: 'soon' },
  }),
);

describe(':time: (§10.2, D5)', () => {
  it.each<[string, string]>([
    [':time:', ''],
    [':time:3d:', 'p1,fut,metaStr,metaBad'],
    [':time:3d', 'p1,fut,metaStr,metaBad'],
    [':time:3D:', 'p1,fut,metaStr,metaBad'],
    [':time:72h:', 'p1,fut,metaStr,metaBad'],
    [':time:1w:', 'p1,p4,fut,metaStr,metaBad'],
    [':time:3d:9d:', 'p4'],
    [':time:3d|9d:', 'p4'],
    [':time|3d:', 'p1,fut,metaStr,metaBad'],
    [':time:9d:3d:', ''],
    [':time:3d:9d:20d:', ''],
    [':time:0d:', ''],
    [':time:3m:', ''],
    [':time:-3d:', ''],
    [':time:1.5d:', ''],
    [':time: 3d:', ''],
    [':time:3 d:', ''],
    [':time::', ''],
    [':time:3d::', ''],
    [':time:3d:2024-01-01:', ''],
    [':time:99999999999999999999d:', 'p1,p4,p10,fut,metaWins,metaStr,metaBad'],
    [':time:today:', 'fut,metaStr,metaBad'],
    [':time:Today:', ''],
    [':time:2024-06-14:', 'p1,fut,metaStr,metaBad'],
    [':time:2024-06-05:2024-06-11:', 'p10'],
    [':time:2024-06-05:2024-06-12:', 'p4,p10'],
    [':time:2024-06-11:2024-06-14:', 'p4'],
    [':time:2024-06-14:2024-06-11:', ''],
    [':time:2024:', 'p1,p4,p10,fut,metaWins,metaStr,metaBad'],
    [':time:nonsense:', ''],
    [':Time:3d:', ''],
    [':time:3d:-.x', ''],
    [':time:3d + p1:', ''],
    [':time:3d: + p1', 'p1'],
    [':time:3d: - p1', 'fut,metaStr,metaBad'],
    [':time: 3d:', ''],
  ])('%j → %j', (expression, expected) => {
    expect(ids(config, expression)).toBe(expected);
  });

  it('reads `3` as March 2001 the way the Date parser does', () => {
    const march = prepareConfig(
      configOf({
        before: { createdAt: '2001-02-20T00:00:00Z' },
        after: { createdAt: '2001-03-10T00:00:00Z' },
      }),
    );
    expect(ids(march, ':time:3:')).toBe('after');
  });

  it('a date-only end bound is 00:00 UTC of that day', () => {
    const day = prepareConfig(
      configOf({
        start: { createdAt: '2024-05-01T00:00:00Z' },
        later: { createdAt: '2024-05-01T06:00:00Z' },
      }),
    );
    expect(ids(day, ':time:2024-04-30:2024-05-01:')).toBe('start');
  });

  it('today is midnight UTC, not local midnight (D5)', () => {
    expect(startOfUtcDay(NOW)).toBe(Date.UTC(2024, 5, 15));
    const edge = prepareConfig(
      configOf({
        justBefore: { createdAt: Date.UTC(2024, 5, 14, 23, 59) },
        midnight: { createdAt: Date.UTC(2024, 5, 15) },
      }),
    );
    expect(ids(edge, ':time:today:')).toBe('midnight');
  });

  it('the window moves with the injected clock', () => {
    expect(ids(config, ':time:3d:', { now: NOW - 3 * DAY })).toBe(
      'p1,p4,fut,metaStr,metaBad',
    );
  });

  it('parses durations', () => {
    expect(parseDuration('2h')).toBe(2 * HOUR);
    expect(parseDuration('1W')).toBe(7 * DAY);
    expect(parseDuration('0h')).toBeNull();
    expect(parseDuration('h')).toBeNull();
    expect(parseDuration('1m')).toBeNull();
  });
});
