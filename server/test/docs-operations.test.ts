/**
 * docs/operations.md states facts the code decides; each is checked against it: the tables a PostgreSQL
 * schema holds (other work changes them; the list must follow), and the security headers `/metrics`
 * answers with (issue 29, "Docs that fail on first contact").
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { CACHE_SHARES } from '../src/cache/cache-policy.js';
import { Metrics } from '../src/http/metrics.js';
import { codeSpans, section, tableRows, textOf } from './doc-tables.js';
import { createTestApp } from './test-app.js';
import {
  TEST_POSTGRES_URL,
  dropSchemas,
  openPostgres,
} from './test-databases.js';

const prefix = `lc_docs_${randomBytes(4).toString('hex')}`;
afterAll(() => dropSchemas(prefix));

describe('docs/operations.md', () => {
  it('lists exactly the tables a new PostgreSQL schema gets', async () => {
    const schema = `${prefix}_tables`;
    const repository = await openPostgres(schema);
    await repository.close();
    const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await client.connect();
    const { rows } = await client
      .query<{ table_name: string }>(
        'SELECT table_name FROM information_schema.tables WHERE table_schema = $1',
        [schema],
      )
      .finally(() => client.end());
    const documented = tableRows(
      section('operations.md', 'PostgreSQL'),
      'table',
    ).map(([name = '']) => name.replaceAll('`', ''));
    expect(documented.sort()).toEqual(rows.map((r) => r.table_name).sort());
  });

  it('names security headers that /metrics answers with too', async () => {
    const text = textOf(section('operations.md', 'Security headers'));
    expect(text).toContain('those of `/metrics` included');
    const headers = codeSpans(text)
      .filter((span) => /^[A-Z][\w-]+:/.test(span))
      .map((span) => span.slice(0, span.indexOf(':')));
    expect(headers).toEqual([
      'X-Content-Type-Options',
      'X-Frame-Options',
      'Referrer-Policy',
    ]);
    const response = await createTestApp({ metrics: new Metrics() }).request(
      '/metrics',
    );
    expect(response.status).toBe(200);
    for (const header of [...headers, 'Content-Security-Policy'])
      expect(response.headers.get(header), header).not.toBeNull();
  });
  it('states the share of CACHE_BYTES each cache actually gets', () => {
    const documented = Object.fromEntries(
      tableRows(
        section('operations.md', 'Caching and compression'),
        'cache (`cache` label)',
      ).map(([name = '', share = '']) => [
        name.replaceAll('`', ''),
        Number(share.replace(' %', '')) / 100,
      ]),
    );
    expect(documented).toEqual(CACHE_SHARES);
  });
});
