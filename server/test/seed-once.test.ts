/**
 * Two instances starting together on one empty PostgreSQL schema seed `demo` once: one revision, a
 * `put`, with the demo's links; the second instance finds it there (operations.md, WORKERS and several
 * instances). Each round uses a fresh schema, so the race is run a few times.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.js';
import { DEMO_CONFIG } from '../src/seed/demo-config.js';
import { startServer } from '../src/start-server.js';
import { TEST_POSTGRES_URL, dropSchemas } from './test-databases.js';

const prefix = `lc_seed_${randomBytes(4).toString('hex')}`;
afterAll(() => dropSchemas(prefix));

const start = (schema: string) =>
  startServer({
    databaseUrl: `${TEST_POSTGRES_URL}?schema=${schema}`,
    logger: createLogger('silent'),
    port: 0,
    host: '127.0.0.1',
    appDir: '/nonexistent',
  });

describe('two instances starting on one empty schema', () => {
  it.each([1, 2, 3])('seed the demo config once (round %i)', async (round) => {
    const schema = `${prefix}_${round}`;
    const servers = await Promise.all([start(schema), start(schema)]);
    try {
      for (const server of servers) {
        const response = await fetch(`${server.url}/configs/demo/history`);
        expect(response.status).toBe(200);
        const { revisions } = (await response.json()) as {
          revisions: { op: string; summary: { added: number } }[];
        };
        expect(revisions).toHaveLength(1);
        expect(revisions[0]).toMatchObject({
          op: 'put',
          summary: { added: Object.keys(DEMO_CONFIG.allLinks).length },
        });
      }
    } finally {
      await Promise.all(servers.map((server) => server.close()));
    }
  });
});
