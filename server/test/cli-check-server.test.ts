/**
 * `linkconfig check --server URL --key K` against a running server with its checker on: the server
 * checks (its politeness, its confirm rule), the command waits for the results, reports them, and exits
 * 0 (fine), 1 (`--fail-on` found a failing link, or the time given ran out) or 2 (the key may not
 * check, no such config, the server's checker is off). The links point at a test site on 127.0.0.1,
 * allowed by OUTBOUND_ALLOW.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.js';
import { OutboundAllowList } from '../src/outbound/address-policy.js';
import { startServer } from '../src/start-server.js';
import type { RunningServer } from '../src/start-server.js';
import { runLinkconfig } from './cli-run.js';
import { startLoopbackServer } from './loopback-server.js';
import type { LoopbackServer } from './loopback-server.js';

const dir = mkdtempSync(join(tmpdir(), 'linkconfig-cli-check-server-'));
const WRITE = 'check-write-key';
const READ = 'check-read-key';
let site: LoopbackServer;
let checking: RunningServer;
let off: RunningServer;

async function start(file: string, linkCheck: boolean): Promise<RunningServer> {
  return startServer({
    databaseUrl: join(dir, file),
    logger: createLogger('silent'),
    port: 0,
    host: '127.0.0.1',
    seed: 'none',
    appDir: '/nonexistent',
    apiToken: WRITE,
    readToken: READ,
    linkCheck,
    outboundAllow: new OutboundAllowList([`127.0.0.1:${site.port}`]),
  });
}

async function put(server: RunningServer, name: string, links: object) {
  const response = await fetch(`${server.url}/configs/${name}`, {
    method: 'PUT',
    headers: {
      Authorization: `Bearer ${WRITE}`,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify({ allLinks: links }),
  });
  expect(response.status).toBeLessThan(300);
}

beforeAll(async () => {
  site = await startLoopbackServer(async (request, response) => {
    if (request.path === '/gone') response.writeHead(404).end();
    else if (request.path === '/slow')
      setTimeout(() => response.writeHead(200).end(), 8000);
    else response.writeHead(200).end();
  });
  checking = await start('checking.db', true);
  off = await start('off.db', false);
  await put(checking, 'site-a', {
    home: { url: `${site.origin}/` },
    gone: { url: `${site.origin}/gone#top` },
    mail: { url: 'mailto:someone@example.org' },
  });
  await put(checking, 'site-b', { slow: { url: `${site.origin}/slow` } });
  await put(off, 'site-a', { home: { url: `${site.origin}/` } });
});
afterAll(async () => {
  await checking.close();
  await off.close();
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

const on = (server: RunningServer, key = WRITE) => [
  '--server',
  server.url,
  '--key',
  key,
];

describe('linkconfig check --server', () => {
  it("has the server check the config's links, waits for the results, and fails the build only as asked", async () => {
    const run = await runLinkconfig(
      ['check', 'site-a', ...on(checking), '--fail-on', 'broken'],
      {},
      { tty: true },
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^site-a: 3 links \(1 ok, 2 unchecked\)\n {2}unchecked {3}gone {2}http:\/\/127\.0\.0\.1:\d+\/gone {2}\(HTTP 404\) — failing since .*\(1×, not yet confirmed\)\n$/,
    );
    // On a terminal, the bar showed on stderr (and was cleared).
    expect(run.stderr).toContain('checking [');
    // The server's checker asked the site (the command itself sends it nothing).
    const paths = site.requests.map((r) => r.path);
    expect(paths).toEqual(
      expect.arrayContaining(['/robots.txt', '/', '/gone']),
    );

    const json = await runLinkconfig([
      'check',
      'site-a',
      ...on(checking),
      '--json',
      '--fail-on',
      'failing',
    ]);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as {
      configs: { name: string; links: { id: string; failures: number }[] }[];
    };
    expect(report.configs.map((c) => c.name)).toEqual(['site-a']);
    // Checked again for this run: a second failure, not yet a day after the first.
    expect(
      report.configs[0]?.links.find((l) => l.id === 'gone')?.failures,
    ).toBe(2);
  });

  it('says when the time given ran out, and fails a build that asked to fail', async () => {
    const run = await runLinkconfig([
      'check',
      'site-b',
      ...on(checking),
      '--wait',
      '1s',
      '--fail-on',
      'broken',
    ]);
    expect(run.stderr).toBe(
      '1 link was not checked within 1s: shown as they were\n',
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^site-b: 1 links /);
  });

  it('exits 2 for a key that may only read, a config that is not there, a server that does not check, and bad flags', async () => {
    const read = await runLinkconfig([
      'check',
      'site-a',
      ...on(checking, READ),
    ]);
    expect(read.code).toBe(2);
    expect(read.stderr).toMatch(
      /POST \/configs\/site-a\/links\/check: the server answered 403/,
    );
    const missing = await runLinkconfig(['check', 'nope', ...on(checking)]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/answered 404/);
    const disabled = await runLinkconfig(['check', 'site-a', ...on(off)]);
    expect(disabled.code).toBe(2);
    expect(disabled.stderr).toMatch(/answered 409 \(link checking is off/);
    const both = await runLinkconfig([
      'check',
      ...on(checking),
      '--database-url',
      'sqlite::memory:',
    ]);
    expect(both.code).toBe(2);
    const keyAlone = await runLinkconfig(['check', '--key', WRITE]);
    expect(keyAlone.stderr).toBe('linkconfig: --key needs --server\n');
    expect(keyAlone.code).toBe(2);
  });
});
