/**
 * The access matrix (issue 19): every REST route of the route table and every tRPC procedure (single,
 * batched, and the subscription), and `GET /events`, × every kind of caller → the expected status, and no
 * byte of a config the caller may not read in any answer or event. On SQLite and on PostgreSQL, each with
 * two server instances on one database: the matrix runs on the second while keys and configs are made
 * through the first, and a key revoked through one is refused by the other within a second.
 */
import { LIMITS } from '@linkconfig/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REST_ROUTES } from '../src/http/routes/route-table.js';
import { appRouter } from '../src/routers/app-router.js';
import {
  CALLERS,
  P,
  S,
  S_MARK,
  T,
  T_MARK,
  configWith,
  forbiddenBytes,
  makeKeys,
  mayReadT,
} from './access-matrix-callers.js';
import type { Caller } from './access-matrix-callers.js';
import {
  ROUTE_CASES,
  expectedStatus,
  routeIds,
} from './access-matrix-cases.js';
import { createTestApp } from './test-app.js';
import type { TestApp } from './test-app.js';
import { postgresDatabases, sqliteDatabases } from './test-databases.js';
import type { TestDatabase } from './test-databases.js';

const AUTH = { anonymousRead: ['public/*'] };
/** `/published` follows the caller's key here, so its routes are held to the same rules as the drafts'. */
const PUBLISHED_READ = 'key';

it('has a case for every route of the route table and no other', () => {
  expect(Object.keys(ROUTE_CASES).sort()).toEqual(routeIds(REST_ROUTES));
});

it('covers every tRPC procedure: the route table, plus the subscription', () => {
  const procedures = Object.keys(appRouter._def.procedures).sort();
  expect(procedures).toEqual(
    [...routeIds(REST_ROUTES), 'configs.changes'].sort(),
  );
});

/** Reads a streamed body until `until` appears in it (or it ends), then cancels it. */
async function readUntil(response: Response, until: string): Promise<string> {
  const reader = response.body?.getReader();
  if (reader === undefined) return '';
  const decoder = new TextDecoder();
  let text = '';
  while (!text.includes(until)) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  await reader.cancel();
  return text;
}

const expectNoHidden = (caller: Caller, text: string, where: string) => {
  for (const bytes of forbiddenBytes(caller)) {
    expect(text.includes(bytes), `${where} (${caller}) holds ${bytes}`).toBe(
      false,
    );
  }
};

function runMatrix(label: string, databases: () => TestDatabase): void {
  describe(`access matrix on ${label}`, () => {
    let db: TestDatabase;
    let a: TestApp;
    let b: TestApp;
    let headers: Record<Caller, Record<string, string>>;
    const throwaway = async () =>
      (
        await a.services.keys.create({
          label: 'throwaway',
          scope: 'read',
          configs: ['x'],
        })
      ).id;
    const throwawayHook = async () =>
      (
        await a.services.hooks.create({
          url: 'https://receiver.example/throwaway',
          events: ['change'],
          configs: ['x'],
        })
      ).id;
    const context = async () => ({
      throwawayKeyId: await throwaway(),
      throwawayHookId: await throwawayHook(),
    });

    beforeAll(async () => {
      db = databases();
      const first = await db.create();
      a = createTestApp({
        repository: first,
        auth: AUTH,
        publishedRead: PUBLISHED_READ,
      });
      b = createTestApp({
        repository: await db.connect(first),
        auth: AUTH,
        publishedRead: PUBLISHED_READ,
      });
      await a.services.configs.put(T, configWith(T_MARK));
      await a.services.configs.put(S, configWith(S_MARK));
      await a.services.configs.put(P, configWith('PUBLIC'));
      await a.services.publish.publish(T, {});
      await a.services.publish.publish(S, {});
      // The link checker found every URL broken: the link-health routes have something to tell.
      await a.repository.linkHealth.putAll(
        [T_MARK, S_MARK, 'PUBLIC'].map((mark) => ({
          url: configWith(mark).allLinks.tlink.url,
          state: 'broken' as const,
          since: '2026-01-01T00:00:00.000Z',
          checkedAt: '2026-01-01T00:00:00.000Z',
          status: 404,
          finalUrl: null,
          reason: 'HTTP 404',
          failingSince: null,
          failures: 2,
          nextAt: 0,
        })),
      );
      headers = await makeKeys(a);
    });
    afterAll(async () => {
      await a.repository.close();
      await b.repository.close();
      await db.cleanup();
    });

    // The admin asks first, so an answer kept for reuse would reach the others if it leaked.
    for (const caller of CALLERS) {
      it(`REST, every route, as ${caller}`, async () => {
        for (const route of REST_ROUTES) {
          const c = ROUTE_CASES[route.id];
          if (c === undefined) throw new Error(`no case for ${route.id}`);
          const { path, init } = c.rest(await context());
          const response = await b.request(path, {
            ...init,
            headers: { ...(init.headers as object), ...headers[caller] },
          });
          const text = await response.text();
          const where = `${route.method} ${route.path}`;
          expect(response.status, `${where} ${text}`).toBe(
            expectedStatus(c.kind, caller, c.allowed?.rest ?? route.status),
          );
          if (response.status === 401) {
            expect(response.headers.get('www-authenticate')).toBe('Bearer');
          }
          if (response.status >= 400) {
            expect(Object.keys(JSON.parse(text) as object)).toEqual(['error']);
          }
          expectNoHidden(caller, text, where);
        }
      });

      it(`tRPC, every procedure alone and all queries in one batch, as ${caller}`, async () => {
        const queries: string[] = [];
        const inputs: Record<string, unknown> = {};
        for (const route of REST_ROUTES) {
          const c = ROUTE_CASES[route.id];
          if (c === undefined) throw new Error(`no case for ${route.id}`);
          const input = c.input(await context());
          const query = route.method === 'GET';
          const url =
            query && input !== undefined
              ? `/trpc/${route.id}?input=${encodeURIComponent(JSON.stringify(input))}`
              : `/trpc/${route.id}`;
          const response = await b.request(url, {
            method: query ? 'GET' : 'POST',
            headers: { 'Content-Type': 'application/json', ...headers[caller] },
            ...(query ? {} : { body: JSON.stringify(input ?? null) }),
          });
          const text = await response.text();
          expect(response.status, `${route.id} ${text}`).toBe(
            expectedStatus(c.kind, caller, c.allowed?.trpc ?? 200),
          );
          expectNoHidden(caller, text, `trpc ${route.id}`);
          if (query) {
            inputs[String(queries.length)] = input;
            queries.push(route.id);
          }
        }
        // In batches as large as a batch may be.
        const answers: { error?: { data?: { httpStatus?: number } } }[] = [];
        for (let from = 0; from < queries.length; from += LIMITS.trpcBatchMax) {
          const part = queries.slice(from, from + LIMITS.trpcBatchMax);
          const partInputs = Object.fromEntries(
            part.map((_, i) => [String(i), inputs[String(from + i)]]),
          );
          const batch = await b.request(
            `/trpc/${part.join(',')}?batch=1&input=${encodeURIComponent(JSON.stringify(partInputs))}`,
            { headers: headers[caller] },
          );
          answers.push(...((await batch.json()) as typeof answers));
        }
        expect(answers.length).toBe(queries.length);
        queries.forEach((id, i) => {
          const c = ROUTE_CASES[id];
          const status = answers[i]?.error?.data?.httpStatus ?? 200;
          expect(status, `batched ${id}`).toBe(
            expectedStatus(c?.kind ?? 'list', caller, 200),
          );
        });
        expectNoHidden(caller, JSON.stringify(answers), 'trpc batch');
      });

      it(`GET /events and the configs.changes subscription, as ${caller}`, async () => {
        const sse = await b.request('/events', { headers: headers[caller] });
        const subscription = await b.request(
          `/trpc/configs.changes?input=${encodeURIComponent(JSON.stringify({}))}`,
          { headers: headers[caller] },
        );
        if (caller === 'expired' || caller === 'revoked') {
          expect(sse.status).toBe(401);
          expectNoHidden(caller, await sse.text(), '/events');
          // tRPC's subscriptions answer in the stream: the error event carries the status.
          const text = await subscription.text();
          expect(text).toMatch(
            /event: serialized-error\ndata: .*"httpStatus":401/,
          );
          expectNoHidden(caller, text, 'configs.changes');
          return;
        }
        expect(sse.status).toBe(200);
        expect(subscription.status).toBe(200);
        // Changes to T and S through the other instance, then the sentinel every caller may read.
        await a.services.configs.put(S, configWith(S_MARK));
        await a.services.configs.put(T, configWith(T_MARK));
        await a.services.configs.put(P, configWith('PUBLIC'));
        for (const [where, response] of [
          ['/events', sse],
          ['configs.changes', subscription],
        ] as const) {
          const text = await readUntil(response, P);
          expect(text, where).toContain(P);
          expect(text.includes(T), `${where} (${caller}) has ${T}`).toBe(
            mayReadT(caller),
          );
          expectNoHidden(caller, text, where);
        }
      });
    }

    it('counts only readable configs in search answers', async () => {
      const searched = async (caller: Caller) =>
        (
          (await (
            await b.request('/search?q=link', { headers: headers[caller] })
          ).json()) as { configsSearched: number }
        ).configsSearched;
      expect(await searched('admin')).toBe(3);
      expect(await searched('read')).toBe(2);
      expect(await searched('readOther')).toBe(1);
      expect(await searched('none')).toBe(1);
    });

    it('answers a write outside the patterns the same whether or not the name exists', async () => {
      const put = (name: string) =>
        b.request(`/configs/${encodeURIComponent(name)}`, {
          method: 'PUT',
          headers: { 'Content-Type': 'application/json', ...headers.write },
          body: '{"allLinks":{}}',
        });
      const existing = await put(S);
      const missing = await put('secret/nothing-here');
      expect([existing.status, missing.status]).toEqual([403, 403]);
      expect((await existing.text()).replace(S, 'N')).toBe(
        (await missing.text()).replace('secret/nothing-here', 'N'),
      );
    });

    it('ends open /events and configs.changes streams of a key revoked through the other instance', async () => {
      const key = await a.services.keys.create({
        label: 'streaming',
        scope: 'read',
        configs: ['*'],
      });
      const auth = { Authorization: `Bearer ${key.secret}` };
      const sse = await b.request('/events', { headers: auth });
      const subscription = await b.request(
        `/trpc/configs.changes?input=${encodeURIComponent('{}')}`,
        { headers: auth },
      );
      expect([sse.status, subscription.status]).toEqual([200, 200]);
      await a.services.keys.revoke(key.id);
      // Both streams end by themselves (the test would time out otherwise).
      const rest = async (response: Response): Promise<string> => {
        try {
          return await response.text();
        } catch {
          return '';
        }
      };
      const [, events] = await Promise.all([rest(sse), rest(subscription)]);
      expect(events).toMatch(/"httpStatus":401/);
    });

    it('refuses, within a second, on one instance a key revoked through the other', async () => {
      const key = await a.services.keys.create({
        label: 'soon revoked',
        scope: 'read',
        configs: ['*'],
      });
      const auth = { Authorization: `Bearer ${key.secret}` };
      expect((await b.request('/configs', { headers: auth })).status).toBe(200);
      const revoked = await a.request(`/keys/${key.id}`, {
        method: 'DELETE',
        headers: headers.admin,
      });
      expect(revoked.status).toBe(204);
      expect((await a.request('/configs', { headers: auth })).status).toBe(401);
      // The other instance keeps a found key at most 500 ms.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const refused = await b.request('/configs', { headers: auth });
      expect(refused.status).toBe(401);
      expect(await refused.json()).toEqual({ error: 'the key was revoked' });
    });
  });
}

runMatrix('SQLite', sqliteDatabases);
runMatrix('PostgreSQL', postgresDatabases);
