/**
 * What the `linkconfig` command says about itself and its progress: `--version`, `serve --help` (its own
 * name, the tokens and the cache budget as they work), a refused setting said without the help that would
 * scroll it away, and progress of backup and restore (a bar on a terminal).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { LINE_EVERY_MS, progressOn } from '../src/cli/progress.js';
import { openRepository } from '../src/storage/open-repository.js';
import { runLinkconfig } from './cli-run.js';

const dir = mkdtempSync(join(tmpdir(), 'linkconfig-cli-commands-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('linkconfig about itself', () => {
  it('prints its version with --version (the server package version)', async () => {
    const { version } = JSON.parse(
      readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
    ) as { version: string };
    const run = await runLinkconfig(['--version']);
    expect(run).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('serve --help names linkconfig serve, and says what API_TOKEN and CACHE_BYTES do', async () => {
    const run = await runLinkconfig(['serve', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n')[0]).toBe('Usage: linkconfig serve [options]');
    const text = run.stdout.replace(/\s+/g, ' ');
    expect(text).toContain(
      'API_TOKEN admin token for every name: writes (PUT, PATCH, DELETE, restore) and key management need it or a key',
    );
    expect(text).toContain(
      "CACHE_BYTES memory budget of all the server's caches together",
    );
  });

  it('says a refused setting with its reason alone (exit 2), not the help', async () => {
    const run = await runLinkconfig(['serve', '--rate-limit', 'sometimes']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'linkconfig: invalid settings:\n  RATE_LIMIT (--rate-limit): must be on or off\n(linkconfig serve --help lists every setting)\n',
    );
    expect(run.stdout).toBe('');
  });
});

describe('progress of backup and restore', () => {
  it('shows a bar on a terminal for both, and the result on stdout', async () => {
    const source = `sqlite:${join(dir, 'source.db')}`;
    const repository = await openRepository(source);
    for (let i = 0; i < 20; i++)
      await repository.put(`c${i}`, '{"allLinks":{}}');
    await repository.close();
    const file = join(dir, 'backup.jsonl');
    const backup = await runLinkconfig(
      ['backup', file, '--database-url', source],
      {},
      { tty: true },
    );
    expect(backup.code).toBe(0);
    expect(backup.stderr).toContain('backup [');
    expect(backup.stderr).toContain('MB written');
    expect(backup.stdout).toMatch(/^backup of 20 configs, 20 revisions/);
    const restore = await runLinkconfig(
      ['restore', file, '--database-url', `sqlite:${join(dir, 'copy.db')}`],
      {},
      { tty: true },
    );
    expect(restore.code).toBe(0);
    expect(restore.stderr).toContain('checking the file [');
    expect(restore.stderr).toContain('restoring [');
    expect(restore.stderr).toContain('40/40 rows written');
    expect(restore.stdout).toMatch(/^restored 20 configs, 20 revisions/);
  });

  it('away from a terminal writes a plain line at most every two seconds', () => {
    const stderr = new PassThrough();
    let text = '';
    stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
    let clock = 0;
    const progress = progressOn(
      { env: {}, stdout: new PassThrough(), stderr },
      { lines: true, now: () => clock },
    );
    progress.start('restoring', 200);
    progress.update(10, '10/200 rows written');
    clock += LINE_EVERY_MS;
    progress.update(80, '80/200 rows written');
    clock += 1;
    progress.update(90, '90/200 rows written');
    clock += LINE_EVERY_MS;
    progress.update(200, '200/200 rows written');
    progress.stop();
    expect(text).toBe(
      'restoring: 40% 80/200 rows written\nrestoring: 100% 200/200 rows written\n',
    );
  });
});
