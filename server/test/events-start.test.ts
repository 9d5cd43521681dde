/**
 * Where a stream "from now on" starts: `GET /events` and the `configs.changes` subscription answer only
 * once the feed's head is known, so a change the client makes on receiving its answer is sent to it.
 * On PostgreSQL the head is a query; here a real SQLite repository's head read is held open to stand
 * for a slow one.
 */
import { pino } from 'pino';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startServer } from '../src/start-server.js';
import type { RunningServer } from '../src/start-server.js';
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

/** A repository whose next head read, once armed, waits until released. */
function holdingHead(repository: ConfigRepository) {
  let held: { asked: () => void; gate: Promise<void> } | undefined;
  // One function for every read (callers may keep the method they got first); it holds when armed.
  const head = async (): Promise<number> => {
    const hold = held;
    held = undefined;
    if (hold !== undefined) {
      hold.asked();
      await hold.gate;
    }
    return repository.head();
  };
  const wrapped = new Proxy(repository, {
    get(target, key) {
      if (key === 'head') return head;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const arm = () => {
    let asked!: () => void;
    let release!: () => void;
    const wasAsked = new Promise<void>((resolve) => (asked = resolve));
    held = { asked, gate: new Promise<void>((resolve) => (release = resolve)) };
    return { wasAsked, release };
  };
  return { repository: wrapped, arm };
}

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
    it(`${what} sends a change the client makes as soon as it has its answer, while the head read is slow`, async () => {
      const held = holdingHead(await sqlite.create());
      const server = await startServer({
        port: 0,
        host: '127.0.0.1',
        seed: 'none',
        logger: pino({ level: 'silent' }),
        repository: held.repository,
      });
      servers.push(server);
      const head = held.arm();
      const abort = new AbortController();
      aborts.push(abort);
      const answer = fetch(`${server.url}${path}`, { signal: abort.signal });
      await head.wasAsked;
      // The client writes the moment it holds its answer. An answer given before the head is known
      // lets that write commit inside the head, and the stream would skip it.
      const wroteOnAnswer = answer.then(async (response) => {
        expect((await put(server, 'made-on-answer')).ok).toBe(true);
        return response;
      });
      // The answer must not come while the head read is out; the bound only ends the wait.
      await Promise.race([
        wroteOnAnswer,
        new Promise((resolve) => setTimeout(resolve, 500)),
      ]);
      head.release();
      const response = await wroteOnAnswer;
      expect(response.status).toBe(200);
      expect((await put(server, 'sentinel')).ok).toBe(true);
      const text = await readUntil(response, 'sentinel');
      expect(text).toContain('made-on-answer');
    });
  }
});
