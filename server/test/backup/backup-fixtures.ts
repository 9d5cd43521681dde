/** What the backup CLI tests write and compare: configs, a key, and everything a database reads back. */
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { startServer } from '../../src/start-server.js';
import { openRepository } from '../../src/storage/open-repository.js';

/** Configs whose exact text matters: key order, integer-like ids, escapes, names outside the BMP. */
export const CONFIGS: Record<string, string> = {
  demo: '{"allLinks":{"b":{"url":"https://b.example/"},"2":{"url":"https://2.example/"}},"z":1,"a":2}',
  'with space': '{ "allLinks": {}, "settings": { "é": "\\u00e9" } }',
  '\u{1F600}': '{"allLinks":{"x":{"url":"https://x.example/","tags":["t"]}}}',
};

export const SECRET = `lck_${randomBytes(32).toString('base64url')}`;
export const bearer = { Authorization: `Bearer ${SECRET}` };
export const NAMES = [...Object.keys(CONFIGS), 'old'];

/** Every config of a database (text, timestamps, version) and everything its history reads give. */
export async function contents(url: string): Promise<Record<string, unknown>> {
  const repository = await openRepository(url);
  try {
    const configs = [];
    for await (const item of repository.snapshot()) {
      if (item.kind === 'config') configs.push(item.config);
    }
    const view: Record<string, unknown> = {
      configs,
      trail: await repository.auditTrail({ afterId: 0, limit: 1000 }),
      deleted: await repository.deletedNames(),
      keys: await repository.keys.list(),
      links: await repository.linkHealth.all(),
      hooks: (await repository.hooks.list()).map((h) => ({
        id: h.id,
        url: h.url,
        events: h.events,
        configs: h.configs,
        createdAt: h.createdAt,
        cursor: h.cursor,
      })),
    };
    for (const name of NAMES) {
      view[name] = await repository.revisions(name, { from: 1, to: 1000 });
    }
    return view;
  } finally {
    await repository.close();
  }
}

/** The configs of a database. */
export const configsOf = async (url: string): Promise<{ name: string }[]> =>
  (await contents(url))['configs'] as { name: string }[];

/** A server on `url` for one check, closed after. */
export async function withServer<T>(
  url: string,
  check: (base: string) => Promise<T>,
): Promise<T> {
  const running = await startServer({
    databaseUrl: url,
    logger: createLogger('silent'),
    port: 0,
    host: '127.0.0.1',
    seed: 'none',
    appDir: '/nonexistent',
  });
  try {
    return await check(running.url);
  } finally {
    await running.close();
  }
}

/** After a restore: the key still works (same hash), and the next write continues `rev`. */
export async function writesGoOn(url: string): Promise<void> {
  await withServer(url, async (base) => {
    const put = (headers: Record<string, string>) =>
      fetch(`${base}/configs/demo`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json', ...headers },
        body: '{"allLinks":{}}',
      });
    expect((await put({})).status).toBe(401);
    expect((await put(bearer)).status).toBe(204);
    const history = await fetch(`${base}/configs/demo/history`, {
      headers: bearer,
    });
    const body = (await history.json()) as {
      revisions: { rev: number; by: unknown }[];
    };
    expect(body.revisions.map((r) => r.rev)).toEqual([3, 2, 1]);
    expect(body.revisions[0]?.by).toEqual({ id: 'key_ops', label: 'ops' });
  });
}
