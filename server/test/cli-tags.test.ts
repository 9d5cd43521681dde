/** `linkconfig tags rename NAME OLD… NEW`: on a running server and on a SQLite file directly. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.js';
import { startServer } from '../src/start-server.js';
import type { RunningServer } from '../src/start-server.js';
import { runLinkconfig } from './cli-run.js';

const dir = mkdtempSync(join(tmpdir(), 'linkconfig-cli-tags-'));
const KEY = 'tags-test-key';
let server: RunningServer;

const config = {
  allLinks: {
    a: { url: 'https://a.example', tags: ['NYC'] },
    b: { url: 'https://b.example', tags: ['newyork'] },
    c: { url: 'https://c.example', tags: ['nyc'] },
  },
  macros: { city: { linkItems: '.NYC | .newyork' } },
};

beforeAll(async () => {
  server = await startServer({
    databaseUrl: join(dir, 'server.db'),
    logger: createLogger('silent'),
    port: 0,
    host: '127.0.0.1',
    seed: 'none',
    appDir: '/nonexistent',
    apiToken: KEY,
  });
  const put = await fetch(`${server.url}/configs/cities`, {
    method: 'PUT',
    headers: {
      'Content-Type': 'application/json',
      Authorization: `Bearer ${KEY}`,
    },
    body: JSON.stringify(config),
  });
  expect(put.status).toBe(204);
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const remote = (): string[] => ['--server', server.url, '--key', KEY];

describe('linkconfig tags rename', () => {
  it('previews with --dry-run, then merges two tags into one as one revision', async () => {
    const dry = await runLinkconfig([
      'tags',
      'rename',
      'cities',
      'NYC',
      'newyork',
      'nyc',
      '--dry-run',
      ...remote(),
    ]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(
      'NYC, newyork → nyc in "cities": 2 link(s), 1 expression(s)',
    );
    expect(dry.stdout).toContain(
      'macros.city: .NYC | .newyork  →  .nyc | .nyc',
    );
    expect(dry.stdout).toContain('"nyc" is already a tag: this merges into it');
    expect(dry.stdout).toContain('nothing stored');

    const done = await runLinkconfig([
      'tags',
      'rename',
      'cities',
      'NYC',
      'newyork',
      'nyc',
      '--json',
      ...remote(),
    ]);
    expect(done.code).toBe(0);
    const result = JSON.parse(done.stdout) as { stored: boolean; rev: number };
    expect(result.stored).toBe(true);
    const stored = (await (
      await fetch(`${server.url}/configs/cities`)
    ).json()) as {
      config: { allLinks: Record<string, { tags: string[] }> };
    };
    expect(Object.values(stored.config.allLinks).map((l) => l.tags)).toEqual([
      ['nyc'],
      ['nyc'],
      ['nyc'],
    ]);
  });

  it('says what is wrong with the arguments (exit 2) and with the server (exit 1)', async () => {
    const one = await runLinkconfig([
      'tags',
      'rename',
      'cities',
      'nyc',
      ...remote(),
    ]);
    expect(one.code).toBe(2);
    expect(one.stderr).toContain('OLD… NEW');
    const bad = await runLinkconfig([
      'tags',
      'rename',
      'cities',
      'nyc',
      'new york',
      ...remote(),
    ]);
    expect(bad.code).toBe(2);
    const missing = await runLinkconfig([
      'tags',
      'rename',
      'nowhere',
      'a',
      'b',
      ...remote(),
    ]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('404');
  });

  it('works on a database directly', async () => {
    const file = join(dir, 'direct.db');
    const { openRepository } =
      await import('../src/storage/open-repository.js');
    const { createServices } = await import('../src/services/services.js');
    const repository = await openRepository(`sqlite:${file}`);
    await createServices({ repository }).configs.put('cities', config);
    await repository.close();
    const run = await runLinkconfig([
      'tags',
      'rename',
      'cities',
      'NYC',
      'big_apple',
      '--database-url',
      `sqlite:${file}`,
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('stored as revision 2');
  });
});
