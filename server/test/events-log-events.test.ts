/**
 * Events of the log about one config (publish, unpublish, link-broken, link-recovered) on `/events`: shown
 * as `event: <type>` to a reader who may read that config, never to one who may not; the `change` frames
 * stay as they were.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/start-server.js';
import { quietServer } from './sse-client.js';
import { createMemoryConfigRepository } from '../src/storage/memory/memory-config-repository.js';

const servers: RunningServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close(1000);
});

const CONFIG = JSON.stringify({ allLinks: {} });

async function openStream(server: RunningServer, secret: string) {
  const abort = new AbortController();
  const response = await fetch(`${server.url}/events`, {
    headers: { Authorization: `Bearer ${secret}` },
    signal: abort.signal,
  });
  expect(response.status).toBe(200);
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  const readUntil = async (done: (text: string) => boolean) => {
    while (!done(text)) {
      const chunk = await reader.read();
      if (chunk.done) break;
      text += decoder.decode(chunk.value, { stream: true });
    }
    return text;
  };
  const close = () => {
    void reader.cancel().catch(() => undefined);
    abort.abort();
  };
  return { readUntil, close };
}

/** The frames of a stream's text, without the opening and heartbeats. */
const frames = (text: string) =>
  text
    .split('\n\n')
    .filter((frame) => frame.startsWith('id: '))
    .map((frame) => {
      const [id, event, data] = frame.split('\n');
      return {
        id: Number(id?.slice(4)),
        event: event?.slice(7),
        data: JSON.parse(data?.slice(6) ?? '') as Record<string, unknown>,
      };
    });

describe('log events on the change feed', () => {
  it('shows publish and link events to readers of the config, and never to others', async () => {
    const repository = createMemoryConfigRepository();
    const server = await quietServer({
      repository,
      // A key reads what anyone may read too: nothing here, so each key reads its own patterns only.
      anonymousRead: [],
    });
    servers.push(server);
    const all = await server.services.keys.create({
      label: 'all',
      scope: 'read',
      configs: ['*'],
    });
    const onlyA = await server.services.keys.create({
      label: 'a',
      scope: 'read',
      configs: ['site-a/*'],
    });
    const everything = await openStream(server, all.secret);
    const partial = await openStream(server, onlyA.secret);

    await repository.put('site-a/menu', CONFIG);
    await repository.put('site-b/menu', CONFIG);
    await repository.appendEvent({
      type: 'link-broken',
      name: 'site-b/menu',
      detail: { url: 'https://b.example/secret', state: 'broken' },
    });
    await repository.appendEvent({
      type: 'link-broken',
      name: 'site-a/menu',
      detail: { url: 'https://a.example/', state: 'broken', status: 404 },
    });
    await repository.appendEvent({
      type: 'publish',
      name: 'site-b/menu',
      detail: { rev: 1 },
    });
    await repository.appendEvent({
      type: 'publish',
      name: 'site-a/menu',
      detail: { rev: 1 },
    });
    // Not a kind the feed shows.
    await repository.appendEvent({ type: 'note', name: 'site-a/menu' });
    await repository.put('site-a/end', CONFIG);

    const seenAll = frames(
      await everything.readUntil((t) => t.includes('site-a/end')),
    );
    const seenA = frames(
      await partial.readUntil((t) => t.includes('site-a/end')),
    );
    everything.close();
    partial.close();

    expect(seenAll.map((f) => [f.event, f.data['name']])).toEqual([
      ['change', 'site-a/menu'],
      ['change', 'site-b/menu'],
      ['link-broken', 'site-b/menu'],
      ['link-broken', 'site-a/menu'],
      ['publish', 'site-b/menu'],
      ['publish', 'site-a/menu'],
      ['change', 'site-a/end'],
    ]);
    expect(seenA.map((f) => [f.event, f.data['name']])).toEqual([
      ['change', 'site-a/menu'],
      ['link-broken', 'site-a/menu'],
      ['publish', 'site-a/menu'],
      ['change', 'site-a/end'],
    ]);
    // A reader of site-a/* only never sees anything about site-b/menu, not even its URL.
    expect(JSON.stringify(seenA)).not.toContain('site-b');
    expect(JSON.stringify(seenA)).not.toContain('b.example');
    expect(seenA[1]?.data).toMatchObject({
      name: 'site-a/menu',
      detail: { url: 'https://a.example/', state: 'broken', status: 404 },
    });
    expect(typeof seenA[1]?.data['at']).toBe('string');
    // The change frames are as before: name, op, etag, updatedAt only.
    expect(Object.keys(seenA[0]?.data ?? {}).sort()).toEqual([
      'etag',
      'name',
      'op',
      'updatedAt',
    ]);
    // Ids increase in log order.
    const ids = seenAll.map((f) => f.id);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
  });
});
