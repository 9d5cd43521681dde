import { describe, expect, it } from 'vitest';
import { ACCESS, Connection } from './connection.js';
import { createHttpCaller } from './http-call.js';
import { createRemoteStore } from './remote-store.js';

const links = { allLinks: { a: { url: 'https://example.com/a' } } };

/** A fetch that answers every request with `status` (an empty JSON body), or fails like a dead network. */
function answering(status: number | 'network'): typeof fetch {
  return (_input, init) => {
    if (status === 'network')
      return Promise.reject(new TypeError('fetch failed'));
    if (init?.signal?.aborted) return Promise.reject(init.signal.reason);
    return Promise.resolve(
      new Response(status === 304 ? null : '{"error":"no"}', { status }),
    );
  };
}

/** Arguments that make each method of the remote store send one request (any method not named: a name). */
const argumentsOf: Record<string, unknown[]> = {
  save: ['n', links],
  saveVersioned: ['n', links, { ifMatch: '"1"' }],
  patch: ['n', { allLinks: {} }, { ifMatch: '"1"' }],
  loadRevision: ['n', 1],
  diff: ['n', 1, 2],
  restore: ['n', 1, {}],
  watchChanges: [{ onChange: () => undefined }],
};

/** Every method of a remote store, found by looking, not by a list: a method added later is in it. */
function methodsOf(store: object): string[] {
  return Object.entries(store)
    .filter(([, value]) => typeof value === 'function')
    .map(([key]) => key)
    .sort();
}

/** Calls `method` of a fresh store whose requests all answer `status`, and returns the model after it. */
async function afterCall(
  method: string,
  status: number | 'network',
  token?: string,
): Promise<Connection> {
  const connection = new Connection();
  const store = createRemoteStore({
    baseUrl: 'http://server.test',
    fetch: answering(status),
    connection,
    token,
  }) as unknown as Record<string, (...args: unknown[]) => unknown>;
  const call = store[method];
  if (call === undefined) throw new Error(`no method ${method}`);
  const result = call(...(argumentsOf[method] ?? ['n']));
  if (result instanceof Promise) await result.catch(() => undefined);
  else if (
    typeof result === 'object' &&
    result !== null &&
    'close' in result &&
    typeof result.close === 'function'
  ) {
    // The change feed opens in the background: wait until its request ended, then close it.
    for (let i = 0; i < 50 && connection.reachable === null; i++)
      await new Promise((resolve) => setTimeout(resolve, 2));
    (result.close as () => void)();
  }
  return connection;
}

describe('Connection, fed by the HTTP caller', () => {
  const store = createRemoteStore({ baseUrl: 'http://server.test' });
  const methods = methodsOf(store);

  it('sees the whole remote store (the list of methods is found, not written)', () => {
    expect(methods).toEqual(
      expect.arrayContaining([
        'list',
        'load',
        'loadVersioned',
        'patch',
        'removeVersioned',
        'restore',
        'saveVersioned',
        'watchChanges',
      ]),
    );
  });

  it.each(methods)(
    '%s reports its outcome: no method can pass the model by',
    async (method) => {
      const refused = await afterCall(method, 401, 'k');
      expect(refused.reachable).toBe(true);
      const refusedAccess = [
        refused.accessFor('read'),
        refused.accessFor('write'),
      ];
      expect(refusedAccess).toContain(ACCESS.tokenRefused);
      const failing = await afterCall(method, 503);
      expect([
        failing.failureOf('read')?.status,
        failing.failureOf('write')?.status,
      ]).toContain(503);
      const unreachable = await afterCall(method, 'network');
      expect(unreachable.reachable).toBe(false);
    },
  );

  it('tells a read key refused a write from a missing token, and a conflict from a refusal', async () => {
    const connection = new Connection();
    const heard: string[] = [];
    connection.subscribe(() =>
      heard.push(
        `${connection.accessFor('read')}/${connection.accessFor('write')}`,
      ),
    );
    const withToken = createRemoteStore({
      baseUrl: 'http://server.test',
      fetch: answering(403),
      connection,
      token: 'read-key',
    });
    await expect(withToken.save('n', links)).rejects.toMatchObject({
      status: 403,
    });
    expect(connection.accessFor('write')).toBe(ACCESS.readOnly);
    const conflicting = createRemoteStore({
      baseUrl: 'http://server.test',
      fetch: answering(412),
      connection,
    });
    await expect(
      conflicting.saveVersioned('n', links, { ifMatch: '"1"' }),
    ).rejects.toMatchObject({ kind: 'conflict' });
    // A 412 is an answer about versions: access stays as it was, nothing new is heard.
    expect(connection.accessFor('write')).toBe(ACCESS.readOnly);
    expect(connection.failureOf('write')).toBeNull();
    const anonymous = createRemoteStore({
      baseUrl: 'http://server.test',
      fetch: answering(401),
      connection,
    });
    await expect(anonymous.list()).rejects.toMatchObject({ status: 401 });
    expect(connection.accessFor('read')).toBe(ACCESS.needsToken);
    // The first answer made the server reachable, then each refusal changed access once.
    expect(heard).toEqual([
      'unknown/unknown',
      'unknown/read-only',
      'needs-token/read-only',
    ]);
    connection.resetAccess();
    expect(connection.accessFor('write')).toBe(ACCESS.unknown);
  });

  it("counts an app's own calls through the caller, as they declare themselves", async () => {
    const connection = new Connection();
    const caller = createHttpCaller({
      baseUrl: 'http://server.test',
      fetch: answering(403),
      connection,
      token: 'k',
    });
    const keys = { op: 'keys', configName: '', method: 'GET', path: '/keys' };
    await caller.call({ ...keys, access: 'none' }).catch(() => undefined);
    // Managing keys says nothing of configs; the server answered all the same.
    expect(connection.reachable).toBe(true);
    expect(connection.accessFor('read')).toBe(ACCESS.unknown);
    await caller
      .call({ ...keys, method: 'POST', path: '/query', access: 'read' })
      .catch(() => undefined);
    expect(connection.accessFor('read')).toBe(ACCESS.tokenRefused);
    expect(connection.accessFor('write')).toBe(ACCESS.unknown);
  });

  it('keeps no failure for a refusal of what was sent (a search pattern the server cannot use)', async () => {
    const connection = new Connection();
    const caller = createHttpCaller({
      baseUrl: 'http://server.test',
      fetch: answering(400),
      connection,
    });
    await caller
      .call({ op: 'search', configName: '', method: 'GET', path: '/search' })
      .catch(() => undefined);
    expect(connection.reachable).toBe(true);
    expect(connection.failureOf('read')).toBeNull();
    expect(connection.accessFor('read')).toBe(ACCESS.unknown);
  });

  it('learns nothing from a call its caller stopped', async () => {
    const connection = new Connection();
    const caller = createHttpCaller({
      baseUrl: 'http://server.test',
      fetch: answering(200),
      connection,
    });
    const stop = new AbortController();
    stop.abort();
    await expect(
      caller.call({
        op: 'check',
        configName: '',
        method: 'POST',
        path: '/expressions/check',
        signal: stop.signal,
      }),
    ).rejects.toBeDefined();
    expect(connection.reachable).toBeNull();
  });
});
