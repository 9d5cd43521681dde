/**
 * `PATCH /configs/:name` with a JSON Merge Patch (RFC 7396), over REST and tRPC, on both real databases:
 * the RFC's semantics on configs, preconditions, refusals that store nothing, body limits, the change
 * feed, and a patch without `If-Match` that meets a concurrent write.
 */
import type { TRPCError } from '@trpc/server';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { createContextInner } from '../src/context.js';
import { appRouter } from '../src/routers/app-router.js';
import type { ConfigRepository } from '../src/storage/config-repository.js';
import { createMemoryConfigRepository } from '../src/storage/memory/memory-config-repository.js';
import { createCallerFactory } from '../src/trpc.js';
import { createTestApp } from './test-app.js';
import type { TestApp, TestAppOptions } from './test-app.js';
import { postgresDatabases, sqliteDatabases } from './test-databases.js';

const databases = [sqliteDatabases(), postgresDatabases()];
afterAll(async () => {
  for (const db of databases) await db.cleanup();
});

const MERGE_PATCH = 'application/merge-patch+json';

const original = () => ({
  allLinks: {
    a: { url: 'https://a.example', label: 'A', tags: ['x', 'y'] },
    b: { url: 'https://b.example', label: 'B', meta: { owner: 'ann', n: 1 } },
  },
  macros: { m: { linkItems: 'a' } },
  settings: { theme: 'dark' },
});

describe.each(databases)('PATCH /configs/:name on $kind', (db) => {
  let t: TestApp;
  const open = async (options: TestAppOptions = {}) => {
    t = createTestApp({ ...options, repository: await db.create() });
    return t;
  };
  beforeEach(async () => {
    await open();
    return () => t.repository.close();
  });

  const patch = (
    body: unknown,
    headers: Record<string, string> = {},
    name = 'n',
  ) =>
    t.request(`/configs/${name}`, {
      method: 'PATCH',
      headers: { 'Content-Type': MERGE_PATCH, ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const stored = async (name = 'n') =>
    (await t.json<{ config: unknown }>(`/configs/${name}`)).body?.config;
  const etagOf = async (name = 'n') =>
    (await t.request(`/configs/${name}`)).headers.get('etag');

  it.each([
    [
      'one field of a link, the rest kept',
      { allLinks: { a: { label: 'New' } } },
      (c: ReturnType<typeof original>) => {
        c.allLinks.a.label = 'New';
      },
    ],
    [
      'null removes a link, a new id adds one',
      { allLinks: { b: null, c: { url: 'https://c.example' } } },
      (c: ReturnType<typeof original>) => {
        const links = c.allLinks as Record<string, unknown>;
        delete links['b'];
        links['c'] = { url: 'https://c.example' };
      },
    ],
    [
      'arrays (tags) are replaced whole',
      { allLinks: { a: { tags: ['z'] } } },
      (c: ReturnType<typeof original>) => {
        c.allLinks.a.tags = ['z'];
      },
    ],
    [
      'nested objects merge, null members go',
      { allLinks: { b: { meta: { owner: null, team: 't' } } } },
      (c: ReturnType<typeof original>) => {
        (c.allLinks.b as Record<string, unknown>)['meta'] = { n: 1, team: 't' };
      },
    ],
    [
      'macros, settings and new top-level keys',
      { macros: { m: null, n: { linkItems: 'b' } }, settings: null, extra: 1 },
      (c: ReturnType<typeof original>) => {
        const config = c as Record<string, unknown>;
        config['macros'] = { n: { linkItems: 'b' } };
        delete config['settings'];
        config['extra'] = 1;
      },
    ],
  ])('applies the RFC 7396 rules: %s', async (_, body, change) => {
    expect((await t.put('n', original())).status).toBe(204);
    const response = await patch(body);
    expect(response.status).toBe(204);
    const etag = response.headers.get('etag');
    expect(etag).toMatch(/^"[0-9a-z]+-[0-9a-z]+"$/);
    expect(await etagOf()).toBe(etag);
    const expected = original();
    change(expected);
    expect(await stored()).toEqual(expected);
  });

  it('accepts application/json too, and refuses other media types with 415', async () => {
    await t.put('n', original());
    const json = await patch(
      { settings: { theme: 'light' } },
      { 'Content-Type': 'application/json' },
    );
    expect(json.status).toBe(204);
    const text = await patch('{}', { 'Content-Type': 'text/plain' });
    expect(text.status).toBe(415);
  });

  it('answers 404 for a missing name, and stores nothing', async () => {
    const response = await patch({ allLinks: {} });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'config "n" not found' });
    expect(await t.json('/configs')).toEqual({ status: 200, body: [] });
  });

  it('honours If-Match: the current ETag patches, a stale one gets 412 with the current ETag', async () => {
    const first = (await t.put('n', original())).headers.get('etag') ?? '';
    const ok = await patch(
      { allLinks: { a: { label: '1' } } },
      { 'If-Match': first },
    );
    expect(ok.status).toBe(204);
    const current = ok.headers.get('etag');
    const stale = await patch(
      { allLinks: { a: { label: '2' } } },
      { 'If-Match': first },
    );
    expect(stale.status).toBe(412);
    expect(stale.headers.get('etag')).toBe(current);
    expect(((await stale.json()) as { error: string }).error).toMatch(
      /has changed/,
    );
    expect(await stored()).toMatchObject({ allLinks: { a: { label: '1' } } });
    const malformed = await patch({}, { 'If-Match': 'nope' });
    expect(malformed.status).toBe(400);
  });

  it('refuses a patch whose result is not a valid config with 400 saying why, storing nothing', async () => {
    const etag = (await t.put('n', original())).headers.get('etag');
    for (const body of [
      { allLinks: { a: { url: null } } },
      { allLinks: null },
      { allLinks: { c: 'not a link' } },
    ]) {
      const response = await patch(body);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: string }).error).toMatch(
        /patched config is not valid/,
      );
    }
    for (const body of ['[1]', '"text"', 'null', '{']) {
      expect((await patch(body)).status).toBe(400);
    }
    expect(await etagOf()).toBe(etag);
    expect(await stored()).toEqual(original());
  });

  it('refuses a patch nested beyond the depth limit with 400 before applying it, storing nothing', async () => {
    const etag = (await t.put('n', original())).headers.get('etag');
    const depth = 100_000;
    const deep = `{"settings":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`;
    const response = await patch(deep);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(
      /nested deeper than/,
    );
    expect(await etagOf()).toBe(etag);
    expect(await stored()).toEqual(original());
  });

  it('applies the body limit of stored configs (413, nothing stored)', async () => {
    await open({ bodyLimit: 2000, inlineBodyLimit: 500 });
    await t.put('n', original());
    const big = {
      allLinks: {
        c: { url: 'https://c.example', description: 'd'.repeat(3000) },
      },
    };
    expect((await patch(big)).status).toBe(413);
    // Above the inline limit, below BODY_LIMIT: a patch stores a config, so it may be that large.
    const medium = {
      allLinks: {
        c: { url: 'https://c.example', description: 'd'.repeat(800) },
      },
    };
    expect((await patch(medium)).status).toBe(204);
    expect(await stored()).toMatchObject({
      allLinks: { c: medium.allLinks.c },
    });
  });

  it('records one change in the feed, as PUT does', async () => {
    await t.put('n', original());
    const before = await t.repository.head();
    const response = await patch({ allLinks: { a: { label: 'feed' } } });
    const page = await t.repository.readLog({ after: before, limit: 10 });
    expect(page.reset).toBe(false);
    const changes = page.reset ? [] : page.changes;
    expect(changes.map((c) => [c.name, c.etag])).toEqual([
      ['n', response.headers.get('etag')],
    ]);
  });

  it('is the tRPC procedure configs.patch, with the same rules', async () => {
    const api = createCallerFactory(appRouter)(createContextInner(t.services));
    const { etag } = await api.configs.put({ name: 'n', config: original() });
    const next = await api.configs.patch({
      name: 'n',
      patch: { allLinks: { a: { label: 'rpc' } } },
      ifMatch: etag,
    });
    expect(next.etag).not.toBe(etag);
    const stale = await api.configs
      .patch({ name: 'n', patch: {}, ifMatch: etag })
      .catch((e: unknown) => e);
    expect((stale as TRPCError).code).toBe('PRECONDITION_FAILED');
    const missing = await api.configs
      .patch({ name: 'gone', patch: {} })
      .catch((e: unknown) => e);
    expect((missing as TRPCError).code).toBe('NOT_FOUND');
    expect(await stored()).toMatchObject({ allLinks: { a: { label: 'rpc' } } });
  });
});

describe.each(databases)(
  'concurrent PATCHes without If-Match on $kind',
  (db) => {
    it('applies all 20 patches of different links, sent at once over two instances: all 204, no 412', async () => {
      const first = await db.create();
      const second = await db.connect(first);
      try {
        const [a, b] = [first, second].map((repository) =>
          createTestApp({ repository }),
        );
        const links = Object.fromEntries(
          Array.from({ length: 20 }, (_, i) => [
            `l${i}`,
            { url: `https://${i}.example`, label: 'old' },
          ]),
        );
        expect((await a!.put('n', { allLinks: links })).status).toBe(204);
        const statuses = await Promise.all(
          Array.from({ length: 20 }, async (_, i) => {
            const response = await (i % 2 === 0 ? a! : b!).request(
              '/configs/n',
              {
                method: 'PATCH',
                headers: { 'Content-Type': MERGE_PATCH },
                body: JSON.stringify({
                  allLinks: { [`l${i}`]: { label: `new ${i}` } },
                }),
              },
            );
            return response.status;
          }),
        );
        expect(statuses).toEqual(Array.from({ length: 20 }, () => 204));
        const { body } = await b!.json<{
          config: { allLinks: Record<string, { label: string }> };
        }>('/configs/n');
        for (let i = 0; i < 20; i++) {
          expect(body.config.allLinks[`l${i}`]?.label).toBe(`new ${i}`);
        }
        // And a stale If-Match is still refused, with the current ETag.
        const stale = await a!.request('/configs/n', {
          method: 'PATCH',
          headers: {
            'Content-Type': MERGE_PATCH,
            'If-Match': '"1-stale"',
          },
          body: JSON.stringify({ settings: { x: 1 } }),
        });
        expect(stale.status).toBe(412);
        expect(stale.headers.get('etag')).toBe(
          (await b!.request('/configs/n')).headers.get('etag'),
        );
      } finally {
        await second.close();
        await first.close();
      }
    });
  },
);

describe('PATCH without If-Match meets a concurrent write', () => {
  /** A repository whose next update is preceded by another writer's `put` of `config` (once per call). */
  function racing(
    repo: ConfigRepository,
    races: number,
  ): ConfigRepository & { wins: number } {
    let left = races;
    const wrapped = Object.create(repo) as ConfigRepository & { wins: number };
    wrapped.wins = 0;
    wrapped.update = async (name, decide, options) => {
      if (left > 0 && options?.op === 'patch') {
        left--;
        wrapped.wins++;
        const current = JSON.parse((await repo.get(name))?.json ?? '{}') as {
          allLinks: Record<string, unknown>;
        };
        current.allLinks[`other${wrapped.wins}`] = { url: 'https://other' };
        await repo.put(name, JSON.stringify(current));
      }
      return repo.update(name, decide, options);
    };
    return wrapped;
  }

  it('applies the patch to the version that won, keeping the other write', async () => {
    const repository = racing(createMemoryConfigRepository(), 1);
    const t = createTestApp({ repository });
    await t.put('n', original());
    const response = await t.request('/configs/n', {
      method: 'PATCH',
      headers: { 'Content-Type': MERGE_PATCH },
      body: JSON.stringify({ allLinks: { a: { label: 'mine' } } }),
    });
    expect(response.status).toBe(204);
    expect(repository.wins).toBe(1);
    const { body } = await t.json<{
      config: { allLinks: Record<string, unknown> };
    }>('/configs/n');
    expect(Object.keys(body.config.allLinks)).toEqual(['a', 'b', 'other1']);
    expect(body.config.allLinks['a']).toMatchObject({ label: 'mine' });
  });

  it('never answers 412 without If-Match: it decides once, inside the write', async () => {
    const repository = racing(createMemoryConfigRepository(), 100);
    const t = createTestApp({ repository });
    await t.put('n', original());
    const response = await t.request('/configs/n', {
      method: 'PATCH',
      headers: { 'Content-Type': MERGE_PATCH },
      body: JSON.stringify({ allLinks: { a: { label: 'mine' } } }),
    });
    expect(response.status).toBe(204);
    expect(repository.wins).toBe(1);
  });

  it('refuses a patch whose result is invalid on the version it meets, storing nothing', async () => {
    const repository = racing(createMemoryConfigRepository(), 1);
    const t = createTestApp({ repository });
    await t.put('n', original());
    const head = await repository.head();
    // Valid on the version read; the racing write adds a link, so the patch's result is checked again.
    const response = await t.request('/configs/n', {
      method: 'PATCH',
      headers: { 'Content-Type': MERGE_PATCH },
      body: JSON.stringify({ allLinks: { other1: { url: 42 } } }),
    });
    expect(response.status).toBe(400);
    expect(await repository.head()).toBe(head + 1);
  });
});
