/**
 * What a new user meets first (issue 17, item 11): `--help` names the installed command, and the page
 * folder defaults truthfully in both layouts, the start-up log saying whether a page is served.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { repositoryAppDir } from '../src/app-dir.js';
import { usage } from '../src/config/settings.js';
import { DEFAULT_APP_DIR, startServer } from '../src/start-server.js';
import { createMemoryConfigRepository } from '../src/storage/memory/memory-config-repository.js';

const dir = mkdtempSync(join(tmpdir(), 'linkconfig-installed-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes `files` (path → text) under `root`. */
function layout(root: string, files: Record<string, string>): string {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** Starts a server on a free port with a memory repository; returns its log entries and its `/`. */
async function start(appDir: string | undefined) {
  const entries: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n'))
        if (line !== '')
          entries.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const server = await startServer({
    port: 0,
    host: '127.0.0.1',
    repository: createMemoryConfigRepository(),
    logger: pino({ level: 'info' }, sink),
    accessLog: false,
    ...(appDir === undefined ? {} : { appDir }),
  });
  try {
    const root = await fetch(`${server.url}/`);
    return {
      entries,
      rootType: root.headers.get('content-type'),
      root: await root.text(),
    };
  } finally {
    await server.close();
  }
}

describe('--help', () => {
  it('names the installed command first, and the repository form', () => {
    expect(usage().split('\n')[0]).toBe('Usage: linkconfig-server [options]');
    expect(usage()).toContain('node server/dist/main.js');
    expect(usage().replace(/\s+/g, ' ')).toContain(
      'served at / (default: none in the installed package; web-client/dist-app in the repository)',
    );
  });
});

describe('the page folder', () => {
  it('defaults to web-client/dist-app of the repository the server runs from', () => {
    const repo = layout(join(dir, 'repo'), {
      'package.json': JSON.stringify({ workspaces: ['shared', 'server'] }),
      'server/package.json': '{}',
    });
    expect(repositoryAppDir(join(repo, 'server'))).toBe(
      join(repo, 'web-client', 'dist-app'),
    );
    // This very checkout is such a repository.
    expect(DEFAULT_APP_DIR).toMatch(/web-client[/\\]dist-app$/);
  });

  it('has no default in an installed package, even next to an installed web-client', () => {
    const project = layout(join(dir, 'project'), {
      'package.json': JSON.stringify({ name: 'mine', dependencies: {} }),
      'node_modules/@linkconfig/server/package.json': '{}',
      'node_modules/@linkconfig/web-client/dist-app/index.html':
        '<!doctype html>',
    });
    expect(
      repositoryAppDir(join(project, 'node_modules/@linkconfig/server')),
    ).toBeUndefined();
    // A project whose own workspaces do not list a server package: not the repository either.
    const workspace = layout(join(dir, 'workspace'), {
      'package.json': JSON.stringify({ workspaces: ['apps/*'] }),
    });
    expect(repositoryAppDir(join(workspace, 'server'))).toBeUndefined();
  });

  it('says in the start-up log which page is served at /', async () => {
    const appDir = layout(join(dir, 'page'), {
      'index.html': '<!doctype html><title>page</title>',
    });
    const served = await start(appDir);
    expect(served.entries.find((e) => e['msg'] === 'listening')).toMatchObject({
      page: appDir,
    });
    expect(served.root).toContain('<title>page</title>');
  });

  it('says when no page is served, and warns about an --app-dir without index.html', async () => {
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    const missing = await start(empty);
    expect(missing.entries.find((e) => e['msg'] === 'listening')).toMatchObject(
      {
        page: null,
      },
    );
    // (The other warning says the server is open: no API_TOKEN, no key.)
    expect(
      missing.entries.find((e) => e['level'] === 40 && 'appDir' in e),
    ).toMatchObject({ appDir: empty });
    expect(
      missing.entries.filter((e) => e['level'] === 40).map((e) => e['msg']),
    ).toContainEqual(
      expect.stringMatching(/^open: no API_TOKEN and no access key/),
    );
    expect(JSON.parse(missing.root)).toMatchObject({ docs: '/docs' });
  });
});
