import { initTRPC } from '@trpc/server';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { describe, expect, it } from 'vitest';
import { TRPC_ENDPOINT, trpcCalls } from '../src/http/trpc-calls.js';

/** The procedure paths tRPC itself resolves for a POST to `url` (what it hands `createContext`). */
async function resolvedByTrpc(url: string): Promise<string[]> {
  const t = initTRPC.create();
  const router = t.router({
    configs: t.router({ put: t.procedure.mutation(() => 'ok') }),
  });
  let seen: string[] = [];
  const batch = new URL(url).searchParams.get('batch') === '1';
  await fetchRequestHandler({
    endpoint: TRPC_ENDPOINT,
    router,
    req: new Request(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: batch ? JSON.stringify({ 0: {}, 1: {}, 2: {} }) : '{}',
    }),
    createContext: ({ info }) => {
      seen = info.calls.map((call) => call.path);
      return {};
    },
  });
  return seen;
}

describe('trpcCalls (issue 17, item 2)', () => {
  it.each([
    '/trpc/configs.put',
    '/trpc/configs.put/',
    '/trpc/configs.put?batch=1',
    '/trpc/configs.put,configs.put?batch=1',
    '/trpc/configs.put%2Cconfigs.put?batch=1',
    '/trpc/configs.put%2cconfigs.put/?batch=1',
    '/trpc/configs.put,configs.put',
    '/trpc/configs%2Eput',
    '/trpc/configs.put?batch=0',
    '/trpc/configs.put,?batch=1',
    '/trpc/%E0%A4%A',
    '/trpc/',
  ])('resolves %s as tRPC does', async (path) => {
    const url = `http://localhost${path}`;
    expect(trpcCalls(url)).toEqual(await resolvedByTrpc(url));
  });
});
