import { describe, expect, it } from 'vitest';
import { byteSize, parseBenchOptions } from './bench-options.js';

describe('parseBenchOptions', () => {
  it("defaults to the issue's workload and the main table only", () => {
    expect(parseBenchOptions([])).toEqual({
      configs: 50,
      links: 500,
      duration: 3,
      rounds: 3,
      warmup: 1,
      connections: 16,
      quick: false,
      main: true,
      scale: false,
      scalePoints: [
        { configs: 10, links: null },
        { configs: 50, links: null },
        { configs: 200, links: null },
        { configs: 10_000, links: 50 },
      ],
      soak: false,
      soakQueries: 5000,
      soakSearches: 20_000,
      soakBytes: 1_000_000,
      cacheBytes: 128 * 1024 * 1024,
      features: false,
      published: false,
      latency: false,
      latencyBytes: 9 * 1024 * 1024,
      latencyRounds: 4,
      latencyVersus: null,
      json: null,
      only: [],
      ceiling: true,
      references: [],
      baseline: true,
      hot: true,
      captures: 16,
      profile: null,
      seed: undefined,
      server: null,
      workers: 1,
      cold: false,
      coldConfigs: 5000,
      coldLinks: 50,
      coldDb: null,
    });
  });
  it('reads references as name=url, with a pid after @ or from --reference-pid', () => {
    const o = parseBenchOptions([
      '--reference',
      'hono-ref=http://127.0.0.1:3901/@4242',
      '--reference',
      'bun=http://127.0.0.1:3903',
      '--reference-pid',
      'bun=77',
    ]);
    expect(o.references).toEqual([
      { name: 'hono-ref', url: 'http://127.0.0.1:3901', pid: 4242 },
      { name: 'bun', url: 'http://127.0.0.1:3903', pid: 77 },
    ]);
    // With references the in-repo baseline runs only when asked for.
    expect(o.baseline).toBe(false);
    expect(
      parseBenchOptions(['--reference', 'x=http://h:1', '--baseline']).baseline,
    ).toBe(true);
  });
  it('refuses malformed, duplicate or reserved references and unknown pids', () => {
    for (const args of [
      ['--reference', 'http://127.0.0.1:3901'],
      ['--reference', 'a=not a url'],
      ['--reference', 'a=ftp://h/'],
      ['--reference', 'ours=http://h:1'],
      ['--reference', 'a=http://h:1', '--reference', 'a=http://h:2'],
      ['--reference', 'a=http://h:1', '--reference-pid', 'b=12'],
      ['--reference', 'a=http://h:1', '--reference-pid', 'a=x'],
    ]) {
      expect(() => parseBenchOptions(args)).toThrow(/--reference/);
    }
  });
  it('reads every flag', () => {
    const o = parseBenchOptions([
      '--scale',
      '--soak',
      '--features',
      '--no-main',
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
      '--no-baseline',
      '--no-hot',
      '--scale-points',
      '2,4x7',
      '--warmup',
      '0',
      '--soak-queries',
      '10',
      '--soak-searches',
      '20',
      '--soak-bytes',
      '64kb',
      '--cache-bytes',
      '32mb',
      '--captures',
      '2',
      '--cold',
      '--cold-configs',
      '30',
      '--cold-links',
      '4',
      '--cold-db',
      '/tmp/cold.db',
    ]);
    expect(o).toMatchObject({
      scale: true,
      soak: true,
      features: true,
      main: false,
      json: 'out.json',
      configs: 10,
      links: 20,
      duration: 1,
      rounds: 1,
      warmup: 0,
      only: ['get', 'put'],
      ceiling: false,
      baseline: false,
      hot: false,
      scalePoints: [
        { configs: 2, links: null },
        { configs: 4, links: 7 },
      ],
      soakQueries: 10,
      soakSearches: 20,
      soakBytes: 65_536,
      cacheBytes: 32 * 1024 * 1024,
      captures: 2,
      cold: true,
      coldConfigs: 30,
      coldLinks: 4,
      coldDb: '/tmp/cold.db',
    });
  });
  it('makes --quick a short smoke test that explicit flags still override', () => {
    expect(parseBenchOptions(['--quick'])).toMatchObject({
      quick: true,
      duration: 1,
      rounds: 1,
      warmup: 1,
      captures: 4,
      soakQueries: 200,
      soakSearches: 2000,
    });
    expect(parseBenchOptions(['--quick', '--rounds', '2']).rounds).toBe(2);
  });
  it('reads the latency flags, smaller with --quick', () => {
    expect(
      parseBenchOptions([
        '--latency',
        '--latency-bytes',
        '2mb',
        '--latency-rounds',
        '3',
        '--latency-versus',
        '/tmp/old/main.js',
      ]),
    ).toMatchObject({
      latency: true,
      latencyBytes: 2 * 1024 * 1024,
      latencyRounds: 3,
      latencyVersus: '/tmp/old/main.js',
    });
    expect(parseBenchOptions(['--quick'])).toMatchObject({
      latencyBytes: 2 * 1024 * 1024,
      latencyRounds: 2,
    });
  });
  it('keeps the warm-up no longer than a short round', () => {
    expect(parseBenchOptions(['--duration', '0.5']).warmup).toBe(0.5);
  });
  it.each([
    ['--configs', '0'],
    ['--duration', 'x'],
    ['--warmup', '-1'],
    ['--cache-bytes', 'lots'],
    ['--bogus'],
  ])('rejects %s %s', (...args) => {
    expect(() =>
      parseBenchOptions(args.filter((a): a is string => a !== undefined)),
    ).toThrow();
  });
});

describe('byteSize', () => {
  it('reads plain bytes and k, m, g in powers of 1024', () => {
    expect(byteSize('x', '1000000', 0)).toBe(1_000_000);
    expect(byteSize('x', '512kb', 0)).toBe(524_288);
    expect(byteSize('x', '1.5MiB', 0)).toBe(1_572_864);
    expect(byteSize('x', '2g', 0)).toBe(2 * 1024 ** 3);
    expect(byteSize('x', undefined, 7)).toBe(7);
  });
});
