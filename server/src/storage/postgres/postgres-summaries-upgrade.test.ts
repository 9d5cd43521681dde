/**
 * Issue 29, item 2, on an existing PostgreSQL schema (version 3): the summary columns are added empty
 * (nullable, no default: no table rewrite), and the first page that lists the old revisions fills them.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createServices } from '../../services/services.js';
import {
  TEST_POSTGRES_URL,
  dropSchemas,
  openPostgres,
} from '../../../test/test-databases.js';

const prefix = `lc_sum_${randomBytes(4).toString('hex')}`;
afterAll(() => dropSchemas(prefix));

describe('postgres: revision summaries on a schema from before them', () => {
  it('migrates schema 3 to 4 with empty summaries that history fills', async () => {
    const schema = `${prefix}_old`;
    const repo = await openPostgres(schema);
    await repo.put('menu', '{"allLinks":{"a":{"url":"https://a"}}}');
    await repo.put('menu', '{"allLinks":{}}');
    await repo.close();
    const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await admin.connect();
    await admin.query(
      `ALTER TABLE "${schema}".linkconfig_revisions
         DROP COLUMN added, DROP COLUMN removed, DROP COLUMN changed, DROP COLUMN links;
       UPDATE "${schema}".linkconfig_schema SET version = 3`,
    );
    const upgraded = await openPostgres(schema);
    const { rows } = await admin.query<{ version: number }>(
      `SELECT version FROM "${schema}".linkconfig_schema`,
    );
    await admin.end();
    expect(rows).toEqual([{ version: 4 }]);
    expect(await upgraded.summaries('menu', { from: 1, to: 2 })).toEqual(
      new Map(),
    );
    const services = createServices({ repository: upgraded });
    const page = await services.history.history('menu', { limit: 10 });
    expect(page.revisions.map((r) => r.summary)).toEqual([
      { added: 0, removed: 1, changed: 0 },
      { added: 1, removed: 0, changed: 0 },
    ]);
    expect((await upgraded.summaries('menu', { from: 1, to: 2 })).size).toBe(2);
    await upgraded.close();
  });
});
