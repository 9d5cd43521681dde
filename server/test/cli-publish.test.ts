/** `linkconfig publish NAME [--rev N] [--origins …|--any-origin]` and `unpublish NAME`: on a server and on a file. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.js';
import { startServer } from '../src/start-server.js';
import type { RunningServer } from '../src/start-server.js';
import { runLinkconfig } from './cli-run.js';

const dir = mkdtempSync(join(tmpdir(), 'linkconfig-cli-publish-'));
const ADMIN = 'publish-test-admin';
let server: RunningServer;

const menu = (label: string) => ({
  allLinks: { a: { label, url: 'https://a.example', tags: ['nyc'] } },
});

const admin = { Authorization: `Bearer ${ADMIN}` };

async function put(name: string, label: string): Promise<void> {
  const response = await fetch(
    `${server.url}/configs/${encodeURIComponent(name)}`,
    {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json', ...admin },
      body: JSON.stringify(menu(label)),
    },
  );
  expect(response.status).toBeLessThan(300);
}

/** The label sites see (`null`: not published). */
async function publishedLabel(name: string): Promise<string | null> {
  const response = await fetch(
    `${server.url}/published/configs/${encodeURIComponent(name)}`,
  );
  if (response.status === 404) return null;
  const body = (await response.json()) as {
    config: { allLinks: { a: { label: string } } };
  };
  return body.config.allLinks.a.label;
}

/** A key of `scope` for `site-a/*`, made with the admin token. */
async function key(scope: string): Promise<string> {
  const response = await fetch(`${server.url}/keys`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...admin },
    body: JSON.stringify({ label: scope, scope, configs: ['site-a/*'] }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { secret: string }).secret;
}

beforeAll(async () => {
  server = await startServer({
    databaseUrl: join(dir, 'server.db'),
    logger: createLogger('silent'),
    port: 0,
    host: '127.0.0.1',
    seed: 'none',
    appDir: '/nonexistent',
    apiToken: ADMIN,
  });
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const remote = (secret = ADMIN): string[] => [
  '--server',
  server.url,
  '--key',
  secret,
];

describe('linkconfig publish and unpublish on a server', () => {
  it('publishes the head, rolls back with --rev, sets origins, unpublishes', async () => {
    await put('site-a/menu', 'First');
    await put('site-a/menu', 'Second');
    const first = await runLinkconfig([
      'publish',
      'site-a/menu',
      '--origins',
      'https://site-a.example, https://www.site-a.example',
      ...remote(),
    ]);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(
      /^published "site-a\/menu" revision 2 \(ETag "[^"]+"\) for https:\/\/site-a\.example, https:\/\/www\.site-a\.example\n$/,
    );
    expect(await publishedLabel('site-a/menu')).toBe('Second');

    // A draft edit does not reach the sites; a rollback brings revision 1 back, origins kept.
    await put('site-a/menu', 'Third');
    const back = await runLinkconfig([
      'publish',
      'site-a/menu',
      '--rev',
      '1',
      '--json',
      ...remote(),
    ]);
    expect(back.code).toBe(0);
    expect(JSON.parse(back.stdout)).toMatchObject({
      name: 'site-a/menu',
      rev: 1,
      origins: ['https://site-a.example', 'https://www.site-a.example'],
    });
    expect(await publishedLabel('site-a/menu')).toBe('First');

    const any = await runLinkconfig([
      'publish',
      'site-a/menu',
      '--any-origin',
      ...remote(),
    ]);
    expect(any.stdout).toContain('revision 3');
    expect(any.stdout).toContain('for any origin');
    expect(await publishedLabel('site-a/menu')).toBe('Third');

    const gone = await runLinkconfig(['unpublish', 'site-a/menu', ...remote()]);
    expect(gone.code).toBe(0);
    expect(gone.stdout).toBe('unpublished "site-a/menu" (it was revision 3)\n');
    expect(await publishedLabel('site-a/menu')).toBeNull();
    const again = await runLinkconfig([
      'unpublish',
      'site-a/menu',
      ...remote(),
    ]);
    expect(again.stdout).toBe('"site-a/menu" was not published\n');
  });

  it('--hide-broken turns healthy-only serving on, a publish without it keeps it, --no-hide-broken turns it off', async () => {
    await put('site-a/health', 'Health');
    const hideBroken = async (...flags: string[]): Promise<unknown> => {
      const run = await runLinkconfig([
        'publish',
        'site-a/health',
        ...flags,
        '--json',
        ...remote(),
      ]);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      return (JSON.parse(run.stdout) as { hideBroken: unknown }).hideBroken;
    };
    expect(await hideBroken()).toBe(false);
    expect(await hideBroken('--hide-broken')).toBe(true);
    expect(await hideBroken()).toBe(true);
    const said = await runLinkconfig(['publish', 'site-a/health', ...remote()]);
    expect(said.stdout).toContain('leaving out links confirmed broken');
    expect(await hideBroken('--no-hide-broken')).toBe(false);
  });

  it('a write key may not publish (exit 1, 403); a publish key may', async () => {
    await put('site-a/news', 'News');
    const writer = await runLinkconfig([
      'publish',
      'site-a/news',
      ...remote(await key('write')),
    ]);
    expect(writer.code).toBe(1);
    expect(writer.stderr).toContain('publishing "site-a/news"');
    expect(writer.stderr).toContain('403');
    expect(await publishedLabel('site-a/news')).toBeNull();
    const reviewer = await runLinkconfig([
      'publish',
      'site-a/news',
      ...remote(await key('publish')),
    ]);
    expect(reviewer.code).toBe(0);
    expect(await publishedLabel('site-a/news')).toBe('News');
  });

  it('says what is wrong with the arguments (exit 2) and with the server (exit 1)', async () => {
    for (const args of [
      ['--rev', 'two'],
      ['--rev', '0'],
      ['--origins', 'https://a.example/path'],
      ['--origins', 'https://a.example', '--any-origin'],
    ]) {
      const run = await runLinkconfig([
        'publish',
        'site-a/menu',
        ...args,
        ...remote(),
      ]);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr, args.join(' ')).toMatch(/^linkconfig: .+/);
    }
    const missing = await runLinkconfig(['publish', 'nowhere', ...remote()]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('404');
    const noRevision = await runLinkconfig([
      'publish',
      'site-a/menu',
      '--rev',
      '99',
      ...remote(),
    ]);
    expect(noRevision.code).toBe(1);
    expect(noRevision.stderr).toContain('no revision 99');
  });
});

describe('linkconfig publish on a database directly', () => {
  it('publishes, rolls back and unpublishes through the same rules', async () => {
    const file = join(dir, 'direct.db');
    const { openRepository } =
      await import('../src/storage/open-repository.js');
    const { createServices } = await import('../src/services/services.js');
    const repository = await openRepository(`sqlite:${file}`);
    const services = createServices({ repository });
    await services.configs.put('menu', menu('One'));
    await services.configs.put('menu', menu('Two'));
    await repository.close();
    const db = ['--database-url', `sqlite:${file}`];

    const published = await runLinkconfig(['publish', 'menu', ...db]);
    expect(published.code).toBe(0);
    expect(published.stdout).toContain('revision 2');
    const rolled = await runLinkconfig([
      'publish',
      'menu',
      '--rev',
      '1',
      '--origins',
      'https://site.example',
      '--json',
      ...db,
    ]);
    expect(JSON.parse(rolled.stdout)).toMatchObject({
      rev: 1,
      origins: ['https://site.example'],
    });
    const unpublished = await runLinkconfig(['unpublish', 'menu', ...db]);
    expect(unpublished.stdout).toContain('it was revision 1');
    const both = await runLinkconfig([
      'publish',
      'menu',
      ...db,
      '--server',
      'http://127.0.0.1:1',
    ]);
    expect(both.code).toBe(2);
  });
});
