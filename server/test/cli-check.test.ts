/**
 * `linkconfig check` in a site's CI: one run on the database with the server's rules, a report, and an
 * exit code that fails a build on dead links. The links point at a test server on 127.0.0.1 (allowed by
 * OUTBOUND_ALLOW); the politeness is timed by a manual clock.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigLinkHealthOutput } from '@linkconfig/shared';
import { createServices } from '../src/services/services.js';
import { openRepository } from '../src/storage/open-repository.js';
import { ManualClock } from '../src/test-clock.js';
import { runLinkconfig } from './cli-run.js';
import type { CliRun } from './cli-run.js';
import { startLoopbackServer } from './loopback-server.js';
import type { LoopbackServer } from './loopback-server.js';

const dir = mkdtempSync(join(tmpdir(), 'linkconfig-cli-check-'));
const database = `sqlite:${join(dir, 'links.db')}`;
let site: LoopbackServer;
let env: Record<string, string>;

beforeAll(async () => {
  site = await startLoopbackServer((request, response) => {
    if (request.path === '/gone') response.writeHead(404).end();
    else response.writeHead(200).end();
  });
  env = { DATABASE_URL: database, OUTBOUND_ALLOW: `127.0.0.1:${site.port}` };
  const repository = await openRepository(database);
  const { configs } = createServices({ repository });
  await configs.put('site-a/menu', {
    allLinks: {
      home: { url: `${site.origin}/` },
      gone: { url: `${site.origin}/gone` },
      mail: { url: 'mailto:someone@example.org' },
    },
  });
  await configs.put('site-b/menu', {
    allLinks: { about: { url: `${site.origin}/about` } },
  });
  await repository.close();
});
afterAll(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs `linkconfig check …`, moving the clock while the checker waits its turns. */
async function check(args: string[], clock: ManualClock): Promise<CliRun> {
  let run: CliRun | undefined;
  const running = runLinkconfig(['check', ...args], env, { clock }).then(
    (r) => (run = r),
  );
  await clock.runUntil(() => run !== undefined);
  return running;
}

describe('linkconfig check', () => {
  it('checks the named configs, reports each link, and fails a build once a link is confirmed broken', async () => {
    const clock = new ManualClock();
    const first = await check(['site-a/menu', '--fail-on', 'broken'], clock);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(
      /^site-a\/menu: 3 links \(1 ok, 2 unchecked\)\n {2}unchecked {3}gone {2}http:\/\/127\.0\.0\.1:\d+\/gone {2}\(HTTP 404\) — failing since .*\(1×, not yet confirmed\)\n$/,
    );
    // Only the named config's URLs were asked.
    expect(site.requests.map((r) => r.path).sort()).toEqual([
      '/',
      '/gone',
      '/robots.txt',
    ]);
    // Any failure, confirmed or not, with --fail-on failing.
    const strict = await check(['site-a/menu', '--fail-on', 'failing'], clock);
    expect(strict.code).toBe(1);

    // A day later the second failure confirms it: the build fails.
    await clock.advance(24 * 3_600_000);
    const second = await check(['--fail-on', 'broken', '--json'], clock);
    expect(second.code).toBe(1);
    const report = JSON.parse(second.stdout) as {
      configs: ConfigLinkHealthOutput[];
    };
    expect(report.configs.map((c) => c.name)).toEqual([
      'site-a/menu',
      'site-b/menu',
    ]);
    expect(report.configs[0]?.links.map((l) => [l.id, l.state])).toEqual([
      ['home', 'ok'],
      ['gone', 'broken'],
      ['mail', 'unchecked'],
    ]);
    expect(report.configs[1]?.counts).toEqual({ ok: 1 });
  });

  it('refuses an unknown config or --fail-on value (exit 2)', async () => {
    const clock = new ManualClock();
    expect((await check(['nothing-here'], clock)).code).toBe(2);
    const wrong = await check(['--fail-on', 'sometimes'], clock);
    expect(wrong).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/--fail-on must be/) as unknown,
    });
  });
});
