/**
 * `linkconfig restore` of hostile files: a keyframe that inflates without end, a change whose kept start
 * and end do not fit the text before it, a line without end. Each is refused with a message naming its
 * line, exit 1 and no stack trace, and the database keeps what it held.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { openRepository } from '../../src/storage/open-repository.js';
import {
  encodeRevision,
  keyframe,
} from '../../src/storage/log/revision-content.js';
import type { RevisionContent } from '../../src/storage/log/revision-content.js';
import { contents } from './backup-fixtures.js';
import { runLinkconfig } from '../cli-run.js';

const dir = mkdtempSync(join(tmpdir(), 'linkconfig-cli-hostile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const AT = '2026-01-01T00:00:00.000Z';
const ONE = '{"allLinks":{"a":{"url":"https://a.example/"}}}';
const TWO = '{"allLinks":{"b":{"url":"https://b.example/"}}}';
const THREE = '{"allLinks":{"c":{"url":"https://c.example/"}}}';

const revision = (rev: number, content: RevisionContent): string =>
  JSON.stringify({
    kind: 'revision',
    name: 'demo',
    rev,
    id: rev,
    op: 'put',
    at: AT,
    by: null,
    requestId: null,
    size: 0,
    content: {
      base: content.base,
      head: content.head,
      tail: content.tail,
      chain: content.chain,
      data: Buffer.from(content.data).toString('base64'),
    },
  });

/** A format 2 file of config `demo` (text `json`, version `version`) and the given revision lines. */
function backupFile(
  name: string,
  [json, version]: [string, number],
  revisions: string[],
): string {
  const lines = [
    JSON.stringify({
      kind: 'header',
      format: 'linkconfig-backup',
      version: 2,
      createdAt: AT,
      source: 'sqlite',
    }),
    JSON.stringify({
      kind: 'config',
      name: 'demo',
      json,
      createdAt: AT,
      updatedAt: AT,
      version,
    }),
    ...revisions,
    JSON.stringify({
      kind: 'end',
      counts: { config: 1, revision: revisions.length },
    }),
  ];
  const file = join(dir, name);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/** Restores `file` into `target` and expects a refusal naming `message`. */
async function refused(
  [file, target]: [string, string],
  message: RegExp,
  options: { env?: Record<string, string>; force?: boolean } = {},
): Promise<void> {
  const run = await runLinkconfig(
    [
      'restore',
      file,
      '--database-url',
      target,
      ...(options.force === true ? ['--force'] : []),
    ],
    options.env ?? {},
  );
  expect(run.stderr).toMatch(message);
  expect(run.code).toBe(1);
  expect(run.stderr).not.toMatch(/\n\s+at /);
  expect(run.stdout).toBe('');
}

describe('linkconfig restore of a hostile file', () => {
  it('a valid file of the same shape restores (the cases below differ from it in one record)', async () => {
    const delta = encodeRevision(2, TWO, {
      rev: 1,
      json: ONE,
      base: 1,
      chain: 0,
    });
    const file = backupFile(
      'valid.jsonl',
      [TWO, 2],
      [revision(1, keyframe(1, ONE)), revision(2, delta)],
    );
    const target = `sqlite:${join(dir, 'valid.db')}`;
    const run = await runLinkconfig([
      'restore',
      file,
      '--database-url',
      target,
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
  });

  it('refuses a keyframe that inflates past BODY_LIMIT (default 10 MiB) without inflating it all', async () => {
    // 16 MiB of zeros deflate to some 16 KB.
    const bomb = {
      base: 1,
      head: 0,
      tail: 0,
      chain: 0,
      data: deflateRawSync(Buffer.alloc(16 * 1024 * 1024)),
    };
    const file = backupFile('bomb.jsonl', [ONE, 1], [revision(1, bomb)]);
    await refused(
      [file, `sqlite:${join(dir, 'bomb.db')}`],
      /line 3: revision 1 of "demo" cannot be read back: a keyframe inflates to more than the limit of 10485760 bytes/,
    );
  });

  it('refuses a change whose kept start and end do not fit the text before it, even when a keyframe follows', async () => {
    const broken = {
      base: 1,
      head: ONE.length + 1000,
      tail: 0,
      chain: 1,
      data: Buffer.from('x'),
    };
    const file = backupFile(
      'offsets.jsonl',
      [THREE, 3],
      [
        revision(1, keyframe(1, ONE)),
        revision(2, broken),
        revision(3, keyframe(3, THREE)),
      ],
    );
    const target = `sqlite:${join(dir, 'offsets.db')}`;
    await refused(
      [file, target],
      /line 4: revision 2 of "demo" cannot be read back: a change keeps 1047 units at the start and 0 at the end of a text of 47/,
    );
    expect(await contents(target)).toMatchObject({ configs: [], keys: [] });
  });

  it('refuses a line longer than BODY_LIMIT allows, naming the line, and leaves a replaced database as it was', async () => {
    const target = `sqlite:${join(dir, 'busy.db')}`;
    const repository = await openRepository(target);
    await repository.put('kept', ONE);
    await repository.close();
    const before = await contents(target);
    // With BODY_LIMIT=1mb a line may hold 2 MiB + 64 KiB: this config's line holds 3 MiB.
    const big = JSON.stringify({ allLinks: {}, pad: 'x'.repeat(3 << 20) });
    const file = backupFile(
      'long.jsonl',
      [big, 1],
      [revision(1, keyframe(1, big))],
    );
    await refused([file, target], /line 2: longer than 2162688 characters/, {
      env: { BODY_LIMIT: '1mb' },
      force: true,
    });
    expect(await contents(target)).toEqual(before);
    // A flag raises the limit, as the server's own flag does.
    const run = await runLinkconfig([
      'restore',
      file,
      '--database-url',
      target,
      '--force',
      '--body-limit',
      '4mb',
    ]);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/restored 1 configs, 1 revisions/);
  });

  it('refuses two keys with one secret before writing anything (storage would refuse the second)', async () => {
    const key = (id: string): string =>
      JSON.stringify({
        kind: 'key',
        id,
        label: id,
        scope: 'read',
        configs: ['*'],
        expiresAt: null,
        createdAt: AT,
        lastUsedAt: null,
        revokedAt: null,
        secretHash: 'a'.repeat(64),
      });
    const file = backupFile(
      'same-secret.jsonl',
      [ONE, 1],
      [revision(1, keyframe(1, ONE)), key('k1'), key('k2')],
    );
    const target = `sqlite:${join(dir, 'same-secret.db')}`;
    await refused([file, target], /key k2 has the secret of another key/);
    expect(await contents(target)).toMatchObject({ configs: [], keys: [] });
  });

  /** A key record (as `JSON.stringify` writes it), with `extra` text before its closing brace. */
  const keyRecord = (fields: Record<string, unknown>, extra = ''): string =>
    `${JSON.stringify({
      kind: 'key',
      id: 'key_ops',
      label: 'ops',
      scope: 'admin',
      configs: ['*'],
      expiresAt: null,
      createdAt: AT,
      lastUsedAt: null,
      revokedAt: '2026-02-01T00:00:00.000Z',
      secretHash: 'b'.repeat(64),
      ...fields,
    }).slice(0, -1)}${extra}}`;

  it('refuses a record with a key written twice (a revoked key made active by a second "revokedAt")', async () => {
    const file = backupFile(
      'revoked-twice.jsonl',
      [ONE, 1],
      [revision(1, keyframe(1, ONE)), keyRecord({}, ',"revokedAt":null')],
    );
    const target = `sqlite:${join(dir, 'revoked-twice.db')}`;
    await refused([file, target], /line 4: revokedAt: the key appears twice/);
    expect(await contents(target)).toMatchObject({ configs: [], keys: [] });
  });

  it('refuses a config whose own text has a key twice, as a PUT would', async () => {
    const twice =
      '{"allLinks":{"a":{"url":"https://a.example/"}},"allLinks":{}}';
    const file = backupFile(
      'config-twice.jsonl',
      [twice, 1],
      [revision(1, keyframe(1, twice))],
    );
    const target = `sqlite:${join(dir, 'config-twice.db')}`;
    await refused(
      [file, target],
      /line 2: config "demo" cannot be kept as written at allLinks: the key appears twice/,
    );
    expect(await contents(target)).toMatchObject({ configs: [], keys: [] });
  });

  it('refuses a key without name patterns (no key can be made so)', async () => {
    const file = backupFile(
      'no-patterns.jsonl',
      [ONE, 1],
      [revision(1, keyframe(1, ONE)), keyRecord({ configs: [] })],
    );
    const target = `sqlite:${join(dir, 'no-patterns.db')}`;
    await refused(
      [file, target],
      /line 4: a broken key record \(configs must name at least one pattern\)/,
    );
    expect(await contents(target)).toMatchObject({ configs: [], keys: [] });
  });

  it('refuses a file of one line without end as soon as the limit is read', async () => {
    const file = join(dir, 'endless.jsonl');
    writeFileSync(file, 'x'.repeat(3 << 20));
    await refused(
      [file, `sqlite:${join(dir, 'endless.db')}`],
      /line 1: longer than 2162688 characters/,
      { env: { BODY_LIMIT: '1mb' } },
    );
  });

  it('says what a wrong --body-limit is (exit 2)', async () => {
    const run = await runLinkconfig([
      'restore',
      join(dir, 'valid.jsonl'),
      '--database-url',
      `sqlite:${join(dir, 'unused.db')}`,
      '--body-limit',
      'lots',
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--body-limit \(BODY_LIMIT\) must be a size/);
  });
});
