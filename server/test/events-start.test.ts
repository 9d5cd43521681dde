/**
 * Where a stream "from now on" starts: `GET /events` and the `configs.changes` subscription answer only
 * once the feed's head is known, so a change the client makes on receiving its answer is sent to it.
 * On PostgreSQL the head is a query; here a real SQLite repository's head read is held open to stand
 * for a slow one.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/start-server.js';
import { quietServer } from './sse-client.js';
import type { ConfigRepository } from '../src/storage/config-repository.js';
import { sqliteDatabases } from './test-databases.js';

const sqlite = sqliteDatabases();
const servers: RunningServer[] = [];
const aborts: AbortController[] = [];
afterEach(async () => {
  for (const a of aborts.splice(0)) a.abort();
  for (const s of servers.splice(0)) await s.close(1000);
});
afterAll(() => sqlite.cleanup());

/**
 * A repository whose head reads wait while it is held (every read, whoever makes it: the hook worker
 * reads the head too), or fail while it is failing.
 */
function holdingHead(repository: ConfigRepository) {
  let gate: Promise<void> | undefined;
  let failure: Error | undefined;
  // One function for every read (callers may keep the method they got first).
  const head = async (): Promise<number> => {
    if (gate !== undefined) await gate;
    if (failure !== undefined) throw failure;
    return repository.head();
  };
  const wrapped = new Proxy(repository, {
    get(target, key) {
      if (key === 'head') return head;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const hold = () => {
    let release!: () => void;
    gate = new Promise<void>((resolve) => (release = resolve));
    return () => {
      gate = undefined;
      release();
    };
  };
  const fail = (error: Error | undefined) => (failure = error);
  return { repository: wrapped, hold, fail };
}

async function serve(repository: ConfigRepository) {
  const server = await quietServer({
    repository,
  });
  servers.push(server);
  return server;
}

const open = (server: RunningServer, path: string) => {
  const abort = new AbortController();
  aborts.push(abort);
  return fetch(`${server.url}${path}`, { signal: abort.signal });
};

const put = (server: RunningServer, name: string) =>
  fetch(`${server.url}/configs/${encodeURIComponent(name)}`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ allLinks: { l: { url: `https://${name}.test` } } }),
  });

/** Reads a response's text until it holds `marker`. */
async function readUntil(response: Response, marker: string): Promise<string> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!text.includes(marker)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  return text;
}

const streams = {
  'GET /events': '/events',
  'configs.changes': `/trpc/configs.changes?input=${encodeURIComponent('{}')}`,
};

describe('a stream opened without an id', () => {
  for (const [what, path] of Object.entries(streams)) {
    it(`${what} answers only once the head is read, and sends a change the client makes on its answer`, async () => {
      const held = holdingHead(await sqlite.create());
      const server = await serve(held.repository);
      const release = held.hold();
      let answered = false;
      // The client writes the moment it holds its answer. An answer given before the head is known
      // lets that write commit inside the head, and the stream would skip it.
      const wroteOnAnswer = open(server, path).then(async (response) => {
        answered = true;
        expect((await put(server, 'made-on-answer')).ok).toBe(true);
        return response;
      });
      // With the fix no answer can come while the head reads are held; the bound only ends the wait.
      await Promise.race([
        wroteOnAnswer,
        new Promise((resolve) => setTimeout(resolve, 500)),
      ]);
      expect(answered).toBe(false);
      release();
      const response = await wroteOnAnswer;
      expect(response.status).toBe(200);
      expect((await put(server, 'sentinel')).ok).toBe(true);
      const text = await readUntil(response, 'sentinel');
      expect(text).toContain('made-on-answer');
    });
  }

  it('is refused with 503 and Retry-After (tRPC: SERVICE_UNAVAILABLE), not the storage error, when the head cannot be read', async () => {
    const held = holdingHead(await sqlite.create());
    const server = await serve(held.repository);
    held.fail(new Error('secret storage detail'));
    const sse = await open(server, streams['GET /events']);
    expect(sse.status).toBe(503);
    expect(sse.headers.get('retry-after')).toBe('5');
    expect(await sse.json()).toEqual({
      error: 'the change log cannot be read right now; try again later',
    });
    const trpc = await open(server, streams['configs.changes']);
    const text = await readUntil(trpc, 'serialized-error');
    expect(text).toMatch(/"code":"SERVICE_UNAVAILABLE"/);
    expect(text).toContain('the change log cannot be read right now');
    expect(text).not.toContain('secret storage detail');
    // Once the head reads again, streams open.
    held.fail(undefined);
    expect((await open(server, streams['GET /events'])).status).toBe(200);
  });
});
