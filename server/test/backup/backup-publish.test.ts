/**
 * Publish records in backups: a database restored from a backup serves under `/published` what the one
 * backed up did (the same revision, ETag, origins and hideBroken), on SQLite and PostgreSQL; a file whose
 * publish record does not fit its revisions is refused before anything is written; a file of format 4
 * (before publish records) still restores, publishing nothing.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretHash } from '../../src/keys/key-secret.js';
import { PublishService } from '../../src/services/publish-service.js';
import { openRepository } from '../../src/storage/open-repository.js';
import { runLinkconfig } from '../cli-run.js';
import { TEST_POSTGRES_URL, dropSchemas } from '../test-databases.js';
import { SECRET, bearer, withServer } from './backup-fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'linkconfig-backup-publish-'));
const prefix = `lc_backup_pub_${randomBytes(4).toString('hex')}`;
const source = `sqlite:${join(dir, 'source.db')}`;
const backup = join(dir, 'backup.jsonl');
const SITE_A = 'https://site-a.example';

const menu = (...ids: string[]): string =>
  JSON.stringify({
    allLinks: Object.fromEntries(
      ids.map((id) => [id, { url: `https://${id}.example/`, tags: ['nyc'] }]),
    ),
  });

/** What sites and publishers see of the published configs of the server at `base`. */
async function publishedView(base: string): Promise<Record<string, unknown>> {
  const view: Record<string, unknown> = {};
  const list = await fetch(`${base}/published/configs`);
  view['list'] = [list.status, await list.json()];
  for (const name of ['site-a/menu', 'site-b/menu', 'draft-only', 'gone']) {
    const path = `/configs/${encodeURIComponent(name)}`;
    const read = async (origin?: string) => {
      const response = await fetch(`${base}/published${path}`, {
        headers: origin === undefined ? {} : { Origin: origin },
      });
      return {
        status: response.status,
        etag: response.headers.get('etag'),
        allowOrigin: response.headers.get('access-control-allow-origin'),
        body: (await response.json()) as unknown,
      };
    };
    const record = await fetch(`${base}${path}/publish`, { headers: bearer });
    view[name] = {
      published: await read(),
      fromSiteA: await read(SITE_A),
      fromElsewhere: await read('https://elsewhere.example'),
      record: [record.status, await record.json()],
    };
  }
  return view;
}

/** Restores `file` into `target` on the command line. */
const restore = (file: string, target: string, ...more: string[]) =>
  runLinkconfig(['restore', file, '--database-url', target, ...more]);

/** The configs and publish records a database holds. */
async function rowsOf(
  url: string,
): Promise<{ configs: number; published: number }> {
  const repository = await openRepository(url);
  try {
    return {
      configs: await repository.count(),
      published: (await repository.publish.versions()).length,
    };
  } finally {
    await repository.close();
  }
}

let before: Record<string, unknown>;

beforeAll(async () => {
  const repository = await openRepository(source);
  await repository.keys.insert({
    id: 'key_ops',
    label: 'ops',
    scope: 'admin',
    configs: ['*'],
    secretHash: secretHash(SECRET),
    expiresAt: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    lastUsedAt: null,
    revokedAt: null,
  });
  await repository.close();
  await withServer(source, async (base) => {
    const send = async (path: string, method: string, body?: unknown) => {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: { 'Content-Type': 'application/json', ...bearer },
        ...(body === undefined
          ? {}
          : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      });
      expect(response.status).toBeLessThan(300);
    };
    const config = (name: string) => `/configs/${encodeURIComponent(name)}`;
    await send(config('site-a/menu'), 'PUT', menu('one'));
    await send(config('site-a/menu'), 'PUT', menu('one', 'two'));
    await send(config('site-a/menu') + '/publish', 'POST', {
      origins: [SITE_A],
      hideBroken: true,
    });
    // A draft after the publish, then a rollback to revision 1: the site shows revision 1.
    await send(config('site-a/menu'), 'PUT', menu('one', 'two', 'draft'));
    await send(config('site-a/menu') + '/publish', 'POST', { rev: 1 });
    await send(config('site-b/menu'), 'PUT', menu('b'));
    await send(config('site-b/menu') + '/publish', 'POST', {});
    await send(config('draft-only'), 'PUT', menu('d'));
    // A deleted config keeps its record (restoring the config brings it back).
    await send(config('gone'), 'PUT', menu('g'));
    await send(config('gone') + '/publish', 'POST', {});
    await send(config('gone'), 'DELETE');
    before = await publishedView(base);
  });
  const run = await runLinkconfig(['backup', backup, '--database-url', source]);
  expect(run).toMatchObject({ code: 0, stderr: '' });
  expect(run.stdout).toContain(', 3 publish records,');
});
afterAll(async () => {
  await dropSchemas(prefix);
  rmSync(dir, { recursive: true, force: true });
});

describe('publish records in backups', () => {
  it('the backup carries every publish record, after the configs and before the revisions', () => {
    const lines = readFileSync(backup, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ kind: 'header', version: 5 });
    const kinds = lines.map((record) => record['kind']);
    expect(kinds.slice(0, 8)).toEqual([
      'header',
      ...Array<string>(3).fill('config'),
      ...Array<string>(3).fill('publish'),
      'revision',
    ]);
    expect(lines.filter((r) => r['kind'] === 'publish')).toMatchObject([
      { name: 'gone', rev: 1, origins: null, hideBroken: false },
      { name: 'site-a/menu', rev: 1, origins: [SITE_A], hideBroken: true },
      { name: 'site-b/menu', rev: 1, origins: null, hideBroken: false },
    ]);
    expect(lines.at(-1)).toMatchObject({ kind: 'end', counts: { publish: 3 } });
  });

  it('a fresh SQLite database restored from it serves the same under /published', async () => {
    // The view is worth comparing: a rollback, origins, a record, an unpublished name, a deleted one.
    expect(before['site-a/menu']).toMatchObject({
      published: { status: 200, body: { config: JSON.parse(menu('one')) } },
      fromSiteA: { status: 200, allowOrigin: SITE_A },
      fromElsewhere: { status: 404 },
      record: [200, { rev: 1, origins: [SITE_A], hideBroken: true }],
    });
    expect(before['list']).toEqual([200, ['site-a/menu', 'site-b/menu']]);
    expect(before['draft-only']).toMatchObject({ published: { status: 404 } });
    expect(before['gone']).toMatchObject({
      published: { status: 404 },
      record: [200, { rev: 1 }],
    });
    const target = `sqlite:${join(dir, 'copy.db')}`;
    const restored = await restore(backup, target);
    expect(restored).toMatchObject({ code: 0, stderr: '' });
    expect(restored.stdout).toContain(', 3 publish records,');
    expect(await withServer(target, publishedView)).toEqual(before);
  });

  it('a fresh PostgreSQL database restored from it serves the same under /published', async () => {
    const target = `${TEST_POSTGRES_URL}?schema=${prefix}_pg`;
    expect(await restore(backup, target)).toMatchObject({
      code: 0,
      stderr: '',
    });
    expect(await withServer(target, publishedView)).toEqual(before);
  });

  it('an older file (format 4, no publish records) restores, publishing nothing, also over records', async () => {
    const lines = readFileSync(backup, 'utf8').trimEnd().split('\n');
    const old = lines
      .filter((line) => !line.startsWith('{"kind":"publish"'))
      .map((line) =>
        line
          .replace('"version":5,', '"version":4,')
          .replace('"publish":3,', ''),
      );
    const file = join(dir, 'format4.jsonl');
    writeFileSync(file, `${old.join('\n')}\n`);
    const target = `sqlite:${join(dir, 'format4.db')}`;
    expect(await restore(file, target)).toMatchObject({ code: 0, stderr: '' });
    expect(await rowsOf(target)).toEqual({ configs: 3, published: 0 });
    // Over a database with records, --force replaces them too: none is left pointing at old rows.
    const held = `sqlite:${join(dir, 'held.db')}`;
    expect((await restore(backup, held)).code).toBe(0);
    expect(await rowsOf(held)).toEqual({ configs: 3, published: 3 });
    expect((await restore(file, held, '--force')).code).toBe(0);
    expect(await rowsOf(held)).toEqual({ configs: 3, published: 0 });
    const view = await withServer(held, publishedView);
    expect(view['list']).toEqual([200, []]);
    expect(view['site-a/menu']).toMatchObject({ published: { status: 404 } });
  });

  it('a record of a revision history no longer keeps restores and is served (the record holds its text)', async () => {
    const url = `sqlite:${join(dir, 'pruned.db')}`;
    const repository = await openRepository(url);
    await repository.put('p', menu('old'));
    await new PublishService({
      repository,
      now: () => new Date(),
    }).publish('p', {});
    await repository.put('p', menu('a', 'b'));
    await repository.put('p', menu('c', 'd', 'e'));
    await repository.pruneHistory({ kind: 'count', count: 1 }, Date.now());
    const kept = await repository.history('p', { limit: 10 });
    await repository.close();
    expect(kept.map((r) => r.rev)).toEqual([3]);
    const file = join(dir, 'pruned.jsonl');
    const run = await runLinkconfig(['backup', file, '--database-url', url]);
    expect(run.code).toBe(0);
    const target = `sqlite:${join(dir, 'pruned-copy.db')}`;
    expect(await restore(file, target)).toMatchObject({ code: 0, stderr: '' });
    const served = await withServer(target, async (base) =>
      (await fetch(`${base}/published/configs/p`)).json(),
    );
    expect(served).toMatchObject({ config: JSON.parse(menu('old')) });
  });

  it('refuses a file whose publish records do not fit its revisions, writing nothing', async () => {
    const lines = readFileSync(backup, 'utf8').trimEnd().split('\n');
    const siteA = (line: string) =>
      line.startsWith('{"kind":"publish","name":"site-a/menu"');
    const edit = (change: (line: string) => string) =>
      lines.map((line) => (siteA(line) ? change(line) : line));
    const publishLine = lines.find(siteA) ?? '';
    const cases: [string, string[], RegExp][] = [
      [
        'other-text',
        edit((line) => line.replace('one.example', 'evil.example')),
        /revision 1 of "site-a\/menu" does not hold what its publish record \(.*line 6\) serves/,
      ],
      [
        'beyond',
        edit((line) => line.replace('"rev":1,', '"rev":9,')),
        /line 6: the publish record of "site-a\/menu" names revision 9, which the file does not hold/,
      ],
      [
        'other-revision',
        edit((line) => line.replace('"rev":1,', '"rev":2,')),
        /revision 2 of "site-a\/menu" does not hold what its publish record/,
      ],
      [
        'no-history',
        edit((line) => line.replace('"name":"site-a/menu"', '"name":"site-z"')),
        /the publish record of "site-z" names revision 1, which the file does not hold/,
      ],
      [
        'etag',
        edit((line) =>
          line.replace(/"etag":"\\"[^\\]*\\""/, '"etag":"\\"1-x\\""'),
        ),
        /line 6: the publish record of "site-a\/menu" has the ETag "1-x"/,
      ],
      [
        'after-revisions',
        [
          ...lines.filter((line) => !siteA(line)).slice(0, -1),
          publishLine,
          lines.at(-1) ?? '',
        ],
        /the publish record of "site-a\/menu" comes after revisions/,
      ],
      [
        'format-4',
        edit((line) => line).map((line) =>
          line.replace('"version":5,', '"version":4,'),
        ),
        /line 5: a publish record in a file of format version 4/,
      ],
    ];
    for (const [name, content, message] of cases) {
      const file = join(dir, `${name}.jsonl`);
      writeFileSync(file, `${content.join('\n')}\n`);
      const target = `sqlite:${join(dir, `refused-${name}.db`)}`;
      const run = await restore(file, target);
      expect(run.stderr, name).toMatch(message);
      expect(run.code, name).toBe(1);
      expect(await rowsOf(target), name).toEqual({ configs: 0, published: 0 });
    }
  });
});
