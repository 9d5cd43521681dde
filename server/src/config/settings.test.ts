import { describe, expect, it } from 'vitest';
import { loadSettings } from './settings.js';
import type { Settings } from './settings.js';

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
      corsOrigins: ['*'],
      logLevel: 'info',
      seed: 'demo',
    });
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

  it('reads the feed settings, with defaults', () => {
    expect(load({})).toMatchObject({
      eventsMaxStreams: 1000,
      eventsHeartbeat: 15_000,
      eventsBuffer: 256 * 1024,
      changesKeep: 10_000,
      changesMaxAge: 7 * 86_400_000,
      corsHeaders: undefined,
    });
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

  it('answers --help', () => {
    expect(loadSettings({}, ['--help'])).toBe('help');
  });

  it.each([
    [{ PORT: 'abc' }, [], /port/],
    [{ PORT: '70000' }, [], /port/],
    [{ BODY_LIMIT: 'ten megabytes' }, [], /bodyLimit: must be a size/],
    [{ LOG_LEVEL: 'loud' }, [], /logLevel/],
    [{ READ_TOKEN: 'r' }, [], /READ_TOKEN needs API_TOKEN/],
    [{}, ['--no-such-flag'], /no-such-flag/],
    [{ DATABASE_URL: 'mysql://x' }, [], /unsupported scheme "mysql:"/],
    [{ DATABASE_URL: 'postgres://h/db?schema=a-b' }, [], /schema/],
    [{ EVENTS_HEARTBEAT: 'soon' }, [], /eventsHeartbeat: must be a duration/],
    [{ EVENTS_MAX_STREAMS: '0' }, [], /eventsMaxStreams/],
  ])('refuses %j %j with a readable message', (env, argv, message) => {
    expect(() => loadSettings(env, argv)).toThrow(message);
  });
});
