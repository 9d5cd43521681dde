import { describe, expect, it } from 'vitest';
import { createHttpCaller } from './http-call.js';
import { RemoteStoreError } from './remote-store-error.js';

const spec = {
  op: 'search',
  configName: '',
  method: 'GET',
  path: '/search?q=x',
};

describe('createHttpCaller', () => {
  it("keeps the server's own reason of an HTTP failure beside the full message", async () => {
    const caller = createHttpCaller({
      baseUrl: 'http://server.test',
      fetch: async () =>
        new Response(JSON.stringify({ error: 'bad pattern' }), { status: 400 }),
    });
    const error: unknown = await caller.call(spec).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RemoteStoreError);
    expect(error).toMatchObject({
      kind: 'http',
      status: 400,
      reason: 'bad pattern',
    });
    expect((error as Error).message).toMatch(/failed with 400: bad pattern/);
  });

  it('rejects with the abort reason itself when the caller stops the call', async () => {
    const caller = createHttpCaller({
      baseUrl: 'http://server.test',
      // Like fetch: a signal aborted already rejects at once.
      fetch: (_input, init) =>
        new Promise((_resolve, reject) => {
          if (init?.signal?.aborted) reject(init.signal.reason);
          init?.signal?.addEventListener('abort', () =>
            reject(init.signal?.reason),
          );
        }),
    });
    const controller = new AbortController();
    const pending = caller.call({ ...spec, signal: controller.signal });
    const reason = new DOMException('newer input', 'AbortError');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });

  it('times out with a TimeoutError reason, so a fetch wrapper can tell it from a stop', async () => {
    let seen: unknown = null;
    const caller = createHttpCaller({
      baseUrl: 'http://server.test',
      timeoutMs: 5,
      fetch: (_input, init) =>
        new Promise((_resolve, reject) =>
          init?.signal?.addEventListener('abort', () => {
            seen = init.signal?.reason;
            reject(init.signal?.reason);
          }),
        ),
    });
    await expect(caller.call(spec)).rejects.toMatchObject({ kind: 'timeout' });
    expect((seen as DOMException).name).toBe('TimeoutError');
  });
});
