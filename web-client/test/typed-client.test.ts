/**
 * The typed client as a caller meets it: history inputs typed as numbers (a string `rev` is a type
 * error), the router type and `TRPCClientError` exported by this package, and a token given as a
 * function, read for every request as the remote store reads it (issue 29, item 14).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { inferRouterInputs } from '@trpc/server';
import { pino } from 'pino';
import {
  afterAll,
  beforeAll,
  describe,
  expect,
  expectTypeOf,
  it,
} from 'vitest';
import { startServer } from '@linkconfig/server';
import type { RunningServer } from '@linkconfig/server';
import { TRPCClientError, createLinkConfigClient } from '../src/index.js';
import type { AppRouter, LinkConfigClient } from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'linkconfig-typed-client-'));
let server: RunningServer;

beforeAll(async () => {
  server = await startServer({
    port: 0,
    host: '127.0.0.1',
    databaseUrl: `sqlite:${join(dir, 'db.sqlite')}`,
    seed: 'none',
    apiToken: 'write',
    logger: pino({ level: 'silent' }),
  });
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

type Inputs = inferRouterInputs<AppRouter>;

describe('the typed client', () => {
  it('types the history inputs as numbers, as the OpenAPI document does', () => {
    expectTypeOf<Inputs['history']['revision']>().toEqualTypeOf<{
      name: string;
      rev: number;
    }>();
    expectTypeOf<Inputs['history']['list']>().toEqualTypeOf<{
      name: string;
      limit?: number | undefined;
      before?: number | undefined;
    }>();
    expectTypeOf<Inputs['history']['diff']['to']>().toEqualTypeOf<
      number | undefined
    >();
    expectTypeOf<Inputs['history']['audit']['since']>().toEqualTypeOf<
      number | undefined
    >();
    // Never called: only compiled (npm run typecheck).
    const wrong = (client: LinkConfigClient) =>
      // @ts-expect-error a revision is a number, not any text
      client.history.revision.query({ name: 'demo', rev: 'banana' });
    expect(typeof wrong).toBe('function');
  });

  it('reads a token function for every request, and rejects with the exported TRPCClientError', async () => {
    const key: { current?: string } = {};
    let asked = 0;
    const client = createLinkConfigClient({
      baseUrl: server.url,
      token: () => {
        asked++;
        return key.current;
      },
    });
    const config = { allLinks: { a: { url: 'https://a.example/' } } };
    const refused = await client.configs.put
      .mutate({ name: 'one', config })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TRPCClientError);
    expect((refused as TRPCClientError<AppRouter>).data?.httpStatus).toBe(401);
    key.current = 'write';
    await client.configs.put.mutate({ name: 'one', config });
    const page = await client.history.list.query({ name: 'one', limit: 5 });
    expect(page.revisions.map((r) => r.rev)).toEqual([1]);
    expect(asked).toBeGreaterThanOrEqual(3);
  });
});
