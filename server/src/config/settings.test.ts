import { availableParallelism } from 'node:os';
import { describe, expect, it, vi } from 'vitest';
import { loadSettings } from './settings.js';
import type { Settings } from './settings.js';
import type * as DatabaseUrl from './database-url.js';

// The database URL module decides which URLs storage can open; here it refuses one scheme, as it
// does for any scheme it does not know, so that the test shows what settings do with a refusal.
vi.mock('./database-url.js', async (importOriginal) => {
  const actual = await importOriginal<typeof DatabaseUrl>();
  return {
    ...actual,
    parseDatabaseUrl: (url: string) => {
      if (url.startsWith('mysql:'))
        throw new Error('DATABASE_URL: unsupported scheme "mysql:"');
      return actual.parseDatabaseUrl(url);
    },
  };
});

const load = (env: Record<string, string>, argv: string[] = []): Settings => {
  const settings = loadSettings(env, argv);
  if (settings === 'help') throw new Error('unexpected help');
  return settings;
};

describe('loadSettings', () => {
  it('has the documented defaults', () => {
    expect(load({})).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      databaseUrl: './data/linkconfig.db',
      bodyLimit: 10 * 1024 * 1024,
      inlineBodyLimit: 1024 * 1024,
      corsOrigins: ['*'],
      logLevel: 'info',
      seed: 'demo',
      metrics: true,
      compression: true,
      accessLog: true,
      rateLimit: true,
      rateLimitReads: 100,
      rateLimitReadBurst: 500,
      rateLimitWrites: 50,
      rateLimitWriteBurst: 200,
      trustProxy: 0,
      workers: 1,
    });
  });

  it('reads WORKERS and --workers: auto is the cores available, or a number', () => {
    expect(load({ WORKERS: 'auto' }).workers).toBe(availableParallelism());
    expect(load({ WORKERS: '4' }).workers).toBe(4);
    expect(load({ WORKERS: '4' }, ['--workers', '2']).workers).toBe(2);
    for (const bad of ['0', 'many', '-1', '1000', '2.5']) {
      expect(() => load({ WORKERS: bad })).toThrow(/WORKERS \(--workers\)/);
    }
  });

  it('reads ANONYMOUS_READ as name patterns (none: [], unset: left to the access rule)', () => {
    const read = (value?: string) =>
      (
        loadSettings(
          value === undefined ? {} : { ANONYMOUS_READ: value },
          [],
        ) as Settings
      ).anonymousRead;
    expect(read()).toBeUndefined();
    expect(read('none')).toEqual([]);
    expect(read('*')).toEqual(['*']);
    expect(read(' public/* , docs ')).toEqual(['public/*', 'docs']);
    expect(loadSettings({}, ['--anonymous-read', 'none'])).toMatchObject({
      anonymousRead: [],
    });
    expect(() => loadSettings({ ANONYMOUS_READ: 'a\u0001b' }, [])).toThrow(
      /ANONYMOUS_READ \(--anonymous-read\): .*name/,
    );
  });

  it('reads the switches and the rate limits', () => {
    const s = load(
      {
        METRICS: 'off',
        COMPRESSION: 'OFF',
        ACCESS_LOG: 'false',
        RATE_LIMIT: 'on',
        RATE_LIMIT_READS: '2.5',
        RATE_LIMIT_WRITE_BURST: '10',
        TRUST_PROXY: 'on',
        METRICS_TOKEN: 'scrape',
      },
      ['--rate-limit', 'off', '--trust-proxy', '2'],
    );
    expect(s).toMatchObject({
      metrics: false,
      compression: false,
      accessLog: false,
      rateLimit: false,
      rateLimitReads: 2.5,
      rateLimitWriteBurst: 10,
      trustProxy: 2,
      metricsToken: 'scrape',
    });
  });

  it('reads the floor on body arrival, 64kb a second by default, 0 for none', () => {
    expect(load({}).bodyMinRate).toBe(64 * 1024);
    expect(load({ BODY_MIN_RATE: '0' }).bodyMinRate).toBe(0);
    expect(load({}, ['--body-min-rate', '1mb']).bodyMinRate).toBe(1024 ** 2);
  });

  it('reads the environment, and flags win over it', () => {
    const s = load(
      {
        PORT: '4000',
        BODY_LIMIT: '512kb',
        CORS_ORIGINS: 'https://a.example, https://b.example',
        API_TOKEN: 'w',
        READ_TOKEN: 'r',
      },
      ['--port', '5000', '--database-url', 'postgres://db/x'],
    );
    expect(s).toMatchObject({
      port: 5000,
      bodyLimit: 512 * 1024,
      corsOrigins: ['https://a.example', 'https://b.example'],
      databaseUrl: 'postgres://db/x',
      apiToken: 'w',
      readToken: 'r',
    });
  });

  it('reads INLINE_BODY_LIMIT and --inline-body-limit', () => {
    expect(load({ INLINE_BODY_LIMIT: '256kb' }).inlineBodyLimit).toBe(
      256 * 1024,
    );
    expect(
      load({ INLINE_BODY_LIMIT: '256kb' }, ['--inline-body-limit', '2mb'])
        .inlineBodyLimit,
    ).toBe(2 * 1024 * 1024);
  });

  it('reads the feed settings, with defaults', () => {
    expect(load({})).toMatchObject({
      eventsMaxStreams: 1000,
      eventsHeartbeat: 15_000,
      eventsBuffer: 256 * 1024,
    });
    // Inert settings (the feed reads the history's log): no default.
    expect(load({}).changesKeep).toBeUndefined();
    expect(load({}).changesMaxAge).toBeUndefined();
    expect(load({}).corsHeaders).toBeUndefined();
    expect(
      load({
        EVENTS_MAX_STREAMS: '5',
        EVENTS_HEARTBEAT: '2s',
        EVENTS_BUFFER: '64kb',
        CHANGES_KEEP: '100',
        CHANGES_MAX_AGE: '24h',
        CORS_HEADERS: 'Authorization, If-Match',
      }),
    ).toMatchObject({
      eventsMaxStreams: 5,
      eventsHeartbeat: 2000,
      eventsBuffer: 64 * 1024,
      changesKeep: 100,
      changesMaxAge: 86_400_000,
      corsHeaders: ['Authorization', 'If-Match'],
    });
  });

  it('reads HISTORY_KEEP: all by default, a count, or an age', () => {
    expect(load({}).historyKeep).toEqual({ kind: 'all' });
    expect(load({ HISTORY_KEEP: '100' }).historyKeep).toEqual({
      kind: 'count',
      count: 100,
    });
    expect(load({ HISTORY_KEEP: '365d' }).historyKeep).toEqual({
      kind: 'age',
      ms: 365 * 86_400_000,
    });
    expect(() => load({ HISTORY_KEEP: 'forever' })).toThrow(/HISTORY_KEEP/);
    expect(() => load({ HISTORY_KEEP: '0' })).toThrow(/HISTORY_KEEP/);
    // Bare digits are a count, never milliseconds, however many.
    expect(() => load({ HISTORY_KEEP: '1234567890' })).toThrow(/HISTORY_KEEP/);
  });

  it('reads every duration with one grammar: the units any of them took before, for all', () => {
    const DAY = 86_400_000;
    // `w` was HISTORY_KEEP's only; `ms`, `s` and `m` the other settings' only.
    expect(
      load({ CHANGES_MAX_AGE: '2w', EVENTS_HEARTBEAT: '1500ms' }),
    ).toMatchObject({ changesMaxAge: 14 * DAY, eventsHeartbeat: 1500 });
    for (const [text, ms] of [
      ['30m', 30 * 60_000],
      ['90s', 90_000],
      ['48H', 2 * DAY],
      ['12 w', 12 * 7 * DAY],
    ] as const) {
      expect(load({ HISTORY_KEEP: text }).historyKeep).toEqual({
        kind: 'age',
        ms,
      });
      expect(load({ CHANGES_MAX_AGE: text }).changesMaxAge).toBe(ms);
    }
    expect(() => load({ CHANGES_MAX_AGE: '0d' })).toThrow(
      /CHANGES_MAX_AGE: must be at least 1 ms/,
    );
    expect(() => load({ CHANGES_MAX_AGE: '3mo' })).toThrow(
      /CHANGES_MAX_AGE: must be a duration such as .* 2w/,
    );
    expect(() => load({ HISTORY_KEEP: '0w' })).toThrow(/HISTORY_KEEP/);
  });

  it('answers --help', () => {
    expect(loadSettings({}, ['--help'])).toBe('help');
  });

  it.each([
    [{ PORT: 'abc' }, [], /PORT \(--port\)/],
    [{ PORT: '70000' }, [], /PORT/],
    [{ BODY_LIMIT: 'ten megabytes' }, [], /BODY_LIMIT.*must be a size/],
    [{ LOG_LEVEL: 'loud' }, [], /LOG_LEVEL/],
    [{ READ_TOKEN: 'r' }, [], /READ_TOKEN: needs API_TOKEN/],
    [{ API_TOKEN: 'a b' }, [], /API_TOKEN: must not contain whitespace/],
    [{ API_TOKEN: 'secret\t' }, [], /API_TOKEN: must not contain whitespace/],
    [
      { API_TOKEN: 'w', READ_TOKEN: 'r\n' },
      [],
      /READ_TOKEN: must not contain whitespace/,
    ],
    [{ METRICS_TOKEN: 'm m' }, [], /METRICS_TOKEN: must not contain/],
    [
      { API_TOKEN: 'same', READ_TOKEN: 'same' },
      [],
      /READ_TOKEN: must differ from API_TOKEN/,
    ],
    [{ DATABASE_URL: 'mysql://x' }, [], /DATABASE_URL.*unsupported scheme/],
    [{ METRICS: 'maybe' }, [], /METRICS \(--metrics\): must be on or off/],
    [{}, ['--rate-limit', 'sometimes'], /RATE_LIMIT.*must be on or off/],
    [{ RATE_LIMIT_READS: '0' }, [], /RATE_LIMIT_READS/],
    [{ RATE_LIMIT_WRITE_BURST: 'lots' }, [], /RATE_LIMIT_WRITE_BURST/],
    [{ TRUST_PROXY: 'yes please' }, [], /TRUST_PROXY.*number of proxy hops/],
    [{}, ['--no-such-flag'], /no-such-flag/],
    [{ DATABASE_URL: 'mysql://x' }, [], /unsupported scheme "mysql:"/],
    [{ DATABASE_URL: 'postgres://h/db?schema=a-b' }, [], /schema/],
    [{ EVENTS_HEARTBEAT: 'soon' }, [], /EVENTS_HEARTBEAT: must be a duration/],
    [{ EVENTS_MAX_STREAMS: '0' }, [], /EVENTS_MAX_STREAMS: /],
  ])('refuses %j %j with a readable message', (env, argv, message) => {
    expect(() => loadSettings(env, argv)).toThrow(message);
  });
});
