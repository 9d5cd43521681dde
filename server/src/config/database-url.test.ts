import { describe, expect, it } from 'vitest';
import { parseDatabaseUrl } from './database-url.js';

describe('parseDatabaseUrl', () => {
  it.each([
    ['./data/x.db', './data/x.db'],
    ['/abs/x.db', '/abs/x.db'],
    ['sqlite:rel.db', 'rel.db'],
    ['sqlite:///abs.db', '/abs.db'],
    [':memory:', ':memory:'],
    ['C:\\data\\x.db', 'C:\\data\\x.db'],
  ])('reads %j as the SQLite file %j', (url, path) => {
    expect(parseDatabaseUrl(url)).toEqual({ kind: 'sqlite', path });
  });

  it.each(['mysql://x', 'postgress://h/db', 'file:x.db', 'http://h/db'])(
    'refuses the unknown scheme of %j',
    (url) => {
      expect(() => parseDatabaseUrl(url)).toThrow(/unsupported scheme/);
    },
  );

  it('reads PostgreSQL URLs, taking the schema out of the query', () => {
    expect(parseDatabaseUrl('postgres://u:p@h:5432/db')).toEqual({
      kind: 'postgres',
      url: 'postgres://u:p@h:5432/db',
    });
    expect(
      parseDatabaseUrl('postgresql://h/db?schema=tenant_1&sslmode=disable'),
    ).toEqual({
      kind: 'postgres',
      url: 'postgresql://h/db?sslmode=disable',
      schema: 'tenant_1',
    });
  });

  it.each(['a-b', '1x', 'x;drop', '', 'x'.repeat(64)])(
    'refuses the schema name %j',
    (schema) => {
      expect(() =>
        parseDatabaseUrl(
          `postgres://h/db?schema=${encodeURIComponent(schema)}`,
        ),
      ).toThrow(/schema/);
    },
  );
});
