/**
 * The typed client's change feed (`configs.changes`) against a real server that needs a token for
 * reads: the subscription streams over SSE and carries the token (issue 17, item 8).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer } from '@linkconfig/server';
import type { RunningServer } from '@linkconfig/server';
import { createLinkConfigClient } from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'linkconfig-subscription-'));
let server: RunningServer;

beforeAll(async () => {
  server = await startServer({
    port: 0,
    host: '127.0.0.1',
    databaseUrl: `sqlite:${join(dir, 'db.sqlite')}`,
    seed: 'none',
    apiToken: 'write',
    readToken: 'read',
    logger: pino({ level: 'silent' }),
  });
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const config = { allLinks: { a: { url: 'https://a' } } };
type Received = { id: string; data: { type: string; name?: string } };

describe('createLinkConfigClient: configs.changes', () => {
  it('streams changes with the token, and resumes after a lastEventId (F3)', async () => {
    const writer = createLinkConfigClient({
      baseUrl: server.url,
      token: 'write',
    });
    const reader = createLinkConfigClient({
      baseUrl: server.url,
      token: 'read',
    });
    const got: Received[] = [];
    const errors: unknown[] = [];
    const subscription = reader.configs.changes.subscribe(undefined, {
      onData: (event) => got.push(event),
      onError: (error) => errors.push(error),
    });
    await vi.waitFor(() => expect(server.services.changes.openStreams).toBe(1));
    await writer.configs.put.mutate({ name: 'one', config });
    await writer.configs.put.mutate({ name: 'two', config });
    await vi.waitFor(() => expect(got).toHaveLength(2));
    subscription.unsubscribe();
    expect(errors).toEqual([]);
    expect(got.map((m) => [m.data.type, m.data.name])).toEqual([
      ['change', 'one'],
      ['change', 'two'],
    ]);
    await vi.waitFor(() => expect(server.services.changes.openStreams).toBe(0));

    const resumed: Received[] = [];
    const again = reader.configs.changes.subscribe(
      { lastEventId: got[0]?.id ?? '' },
      { onData: (event) => resumed.push(event) },
    );
    await vi.waitFor(() => expect(resumed).toHaveLength(1));
    expect(resumed[0]).toEqual(got[1]);
    again.unsubscribe();
  });

  it('is refused without the read token (F3)', async () => {
    const client = createLinkConfigClient({ baseUrl: server.url });
    const error = await new Promise<unknown>((resolve) => {
      client.configs.changes.subscribe(undefined, { onError: resolve });
    });
    expect(error).toMatchObject({ data: { code: 'UNAUTHORIZED' } });
  });
});
