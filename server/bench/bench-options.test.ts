import { describe, expect, it } from 'vitest';
import { parseBenchOptions } from './bench-options.js';

describe('parseBenchOptions', () => {
  it("defaults to the issue's workload", () => {
    expect(parseBenchOptions([])).toEqual({
      configs: 50,
      links: 500,
      duration: 8,
      rounds: 3,
      warmup: 2,
      connections: 16,
      scale: false,
      scalePoints: [10, 50, 200],
      json: null,
      only: [],
      ceiling: true,
      profile: null,
      seed: undefined,
      server: null,
    });
  });
  it('reads every flag', () => {
    const o = parseBenchOptions([
      '--scale',
      '--json',
      'out.json',
      '--configs',
      '10',
      '--links',
      '20',
      '--duration',
      '1',
      '--rounds',
      '1',
      '--only',
      'get, put',
      '--no-ceiling',
      '--scale-points',
      '2,4',
      '--warmup',
      '0',
    ]);
    expect(o).toMatchObject({
      scale: true,
      json: 'out.json',
      configs: 10,
      links: 20,
      duration: 1,
      rounds: 1,
      warmup: 0,
      only: ['get', 'put'],
      ceiling: false,
      scalePoints: [2, 4],
    });
  });
  it('keeps the warm-up no longer than a short round', () => {
    expect(parseBenchOptions(['--duration', '1']).warmup).toBe(1);
  });
  it.each([
    ['--configs', '0'],
    ['--duration', 'x'],
    ['--warmup', '-1'],
    ['--bogus'],
  ])('rejects %s %s', (...args) => {
    expect(() =>
      parseBenchOptions(args.filter((a): a is string => a !== undefined)),
    ).toThrow();
  });
});
