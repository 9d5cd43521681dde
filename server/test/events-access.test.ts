/**
 * An open `/events` stream asks again every half second whether its caller's access holds (`stillValid`
 * in `server/src/http/app.ts`). The same header must still read the same names, not only present the same
 * kind of token: a stream that could read config B stops when keys change so that it may read A only,
 * and never delivers B's changes after that.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/start-server.js';
import { quietServer } from './sse-client.js';
import { createMemoryConfigRepository } from '../src/storage/memory/memory-config-repository.js';

const servers: RunningServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close(1000);
});

async function start(anonymousRead: string[]) {
  const repository = createMemoryConfigRepository();
  const server = await quietServer({
    repository,
    anonymousRead,
  });
  servers.push(server);
  return { server, repository };
}

const bearer = (secret: string) => ({ Authorization: `Bearer ${secret}` });

const put = async (
  server: RunningServer,
  name: string,
  headers: Record<string, string> = {},
) => {
  const response = await fetch(`${server.url}/configs/${name}`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify({
      allLinks: { l: { url: `https://${name}.example/` } },
    }),
  });
  expect(response.status).toBe(204);
};

/** An open `/events` stream, read as it comes. */
async function openStream(server: RunningServer, headers = {}) {
  const abort = new AbortController();
  const response = await fetch(`${server.url}/events`, {
    headers,
    signal: abort.signal,
  });
  expect(response.status).toBe(200);
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  let ended = false;
  /** Reads until `done` holds for what came (or the stream ends); whether it ended. */
  const readUntil = async (done: (text: string) => boolean) => {
    while (!ended && !done(text)) {
      // A stream whose access is lost ends as a stream ends (no error: the client reconnects).
      const chunk = await reader.read();
      if (chunk.done) ended = true;
      else text += decoder.decode(chunk.value, { stream: true });
    }
    return ended;
  };
  const names = () =>
    [...text.matchAll(/"name":"([^"]+)"/g)].map((match) => match[1]);
  const close = () => {
    void reader.cancel().catch(() => undefined);
    abort.abort();
  };
  return { readUntil, names, close };
}

describe('a change stream after keys change', () => {
  it('ends when the names its caller may read shrink, though it presents the same (no) token', async () => {
    // Open (no key yet): anyone reads everything. Once a key exists, a caller without one reads `a` only.
    const { server } = await start(['a']);
    const stream = await openStream(server);
    await put(server, 'a');
    await put(server, 'b');
    await stream.readUntil((text) => text.includes('"name":"b"'));
    expect(stream.names()).toEqual(['a', 'b']);
    const admin = await server.services.keys.create({
      label: 'admin',
      scope: 'admin',
      configs: ['*'],
    });
    // The renewed check ends the stream (the test's timeout says it never did).
    expect(await stream.readUntil(() => false)).toBe(true);
    await put(server, 'b', bearer(admin.secret));
    expect(stream.names()).toEqual(['a', 'b']);
    // A new stream without a key reads `a` only.
    const after = await openStream(server);
    await put(server, 'b', bearer(admin.secret));
    await put(server, 'a', bearer(admin.secret));
    await after.readUntil((text) => text.includes('"name":"a"'));
    expect(after.names()).toEqual(['a']);
    after.close();
  });

  it('ends when a key is stored again reading a only, under the same secret', async () => {
    const { server, repository } = await start([]);
    const admin = await server.services.keys.create({
      label: 'admin',
      scope: 'admin',
      configs: ['*'],
    });
    const reader = await server.services.keys.create({
      label: 'reader',
      scope: 'read',
      configs: ['a', 'b'],
    });
    const stream = await openStream(server, bearer(reader.secret));
    await put(server, 'b', bearer(admin.secret));
    await stream.readUntil((text) => text.includes('"name":"b"'));
    // As a restore of a backup does: the key's row replaced, its secret's digest the same.
    const stored = (await repository.keys.list()).find(
      (key) => key.id === reader.id,
    );
    if (stored === undefined) throw new Error('no stored key');
    await repository.keys.putAll([{ ...stored, configs: ['a'] }]);
    expect(await stream.readUntil(() => false)).toBe(true);
    await put(server, 'b', bearer(admin.secret));
    expect(stream.names()).toEqual(['b']);
  });
});
