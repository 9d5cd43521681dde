import { TRPCError } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import { createAuthenticator } from '../auth.js';
import { createContextInner } from '../context.js';
import { createServices } from '../services/services.js';
import { createMemoryConfigRepository } from '../storage/memory/memory-config-repository.js';
import { createCallerFactory } from '../trpc.js';
import { appRouter } from './app-router.js';

const createCaller = createCallerFactory(appRouter);

function setup(authorization?: string) {
  const services = createServices({
    repository: createMemoryConfigRepository(),
    now: () => new Date('2026-01-01T00:00:00.000Z'),
  });
  const auth = createAuthenticator({ apiToken: 'w', readToken: 'r' })(
    authorization,
    { open: false, now: 0 },
  );
  return {
    services,
    caller: createCaller(createContextInner(services)),
    restricted: createCaller(createContextInner(services, auth)),
  };
}

const codeOf = async (promise: Promise<unknown>): Promise<string> => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCError);
  return (error as TRPCError).code;
};

describe('procedures through createCaller', () => {
  it('list, put, get and remove', async () => {
    const { caller } = setup();
    await caller.configs.put({
      name: 'b',
      config: { allLinks: {}, name: 'inner' },
    });
    await caller.configs.put({
      name: 'a',
      config: { allLinks: { x: { url: 'data:x' } } },
    });
    expect(await caller.configs.list()).toEqual(['a', 'b']);
    const entry = await caller.configs.get({ name: 'a' });
    expect(entry).toEqual({
      config: { allLinks: { x: { url: 'about:blank' } } },
      meta: {
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-01T00:00:00.000Z',
      },
    });
    expect((await caller.configs.get({ name: 'b' })).config['name']).toBe(
      'inner',
    );
    await caller.configs.remove({ name: 'a' });
    expect(await codeOf(caller.configs.get({ name: 'a' }))).toBe('NOT_FOUND');
  });

  it('maps service rule violations to BAD_REQUEST with the rule as message', async () => {
    const { caller } = setup();
    const error = await caller.configs
      .put({ name: 'n', config: { allLinks: { a: {} } } as never })
      .catch((e: unknown) => e as TRPCError);
    expect(error).toMatchObject({
      code: 'BAD_REQUEST',
      message: 'allLinks.a.url must be a string',
    });
    expect(await codeOf(caller.search.links({ regex: '(' }))).toBe(
      'BAD_REQUEST',
    );
  });

  it('validates inputs with the shared schemas', async () => {
    const { caller } = setup();
    expect(await codeOf(caller.configs.get({ name: '' }))).toBe('BAD_REQUEST');
    expect(await codeOf(caller.expressions.query({ expression: '' }))).toBe(
      'BAD_REQUEST',
    );
    expect(await codeOf(caller.search.links({}))).toBe('BAD_REQUEST');
  });

  it('search, cherry-pick and query', async () => {
    const { caller } = setup();
    await caller.configs.put({
      name: 'demo',
      config: {
        allLinks: {
          a: { url: 'https://a', tags: ['t'] },
          b: { url: 'https://b', tags: ['u'] },
        },
      },
    });
    expect((await caller.search.links({ tag: 't' })).results).toEqual([
      { configName: 'demo', id: 'a', link: { url: 'https://a', tags: ['t'] } },
    ]);
    expect(
      await caller.expressions.cherryPick({ source: 'demo', expression: '.u' }),
    ).toEqual({ allLinks: { b: { url: 'https://b', tags: ['u'] } } });
    expect(await caller.expressions.query({ expression: 'a | b' })).toEqual({
      results: [
        { id: 'a', url: 'https://a', tags: ['t'] },
        { id: 'b', url: 'https://b', tags: ['u'] },
      ],
    });
    expect(
      await codeOf(
        caller.expressions.cherryPick({ source: 'none', expression: 'a' }),
      ),
    ).toBe('NOT_FOUND');
  });

  it('enforces the auth rules in the procedures themselves', async () => {
    expect(await codeOf(setup().restricted.configs.list())).toBe(
      'UNAUTHORIZED',
    );
    expect(
      await codeOf(
        setup('Bearer r').restricted.configs.put({
          name: 'n',
          config: { allLinks: {} },
        }),
      ),
    ).toBe('FORBIDDEN');
    expect(
      await codeOf(
        setup('Bearer nope').restricted.configs.remove({ name: 'n' }),
      ),
    ).toBe('UNAUTHORIZED');
    expect(await setup('Bearer r').restricted.configs.list()).toEqual([]);
    await setup('Bearer w').restricted.configs.put({
      name: 'n',
      config: { allLinks: {} },
    });
  });
});
