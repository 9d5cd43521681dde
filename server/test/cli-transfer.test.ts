import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.js';
import { startServer } from '../src/start-server.js';
import type { RunningServer } from '../src/start-server.js';
import { runLinkconfig } from './cli-run.js';

const dir = mkdtempSync(join(tmpdir(), 'linkconfig-cli-transfer-'));
const fixtures = new URL(
  '../../shared/test-fixtures/transfer/',
  import.meta.url,
);
const fixture = (name: string): string => new URL(name, fixtures).pathname;
const KEY = 'import-test-key';
let server: RunningServer;

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
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const remote = (): string[] => ['--server', server.url, '--key', KEY];
const getConfig = async (name: string) => {
  const response = await fetch(`${server.url}/configs/${name}`);
  return {
    status: response.status,
    etag: response.headers.get('etag'),
    body:
      response.status === 200
        ? ((await response.json()) as {
            config: {
              allLinks: Record<string, { url: string; tags?: string[] }>;
            };
          })
        : null,
  };
};

describe('linkconfig import into a running server', () => {
  it('imports bookmarks HTML into a new config, prints the report with the skipped links, and exits 0 (--strict: 1)', async () => {
    const run = await runLinkconfig([
      'import',
      fixture('firefox.html'),
      '--into',
      'ff',
      ...remote(),
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^import into "ff" \(html, merge\): 5 added, 0 merged, 2 skipped, 4 new tags\n/,
    );
    const strict = await runLinkconfig([
      'import',
      fixture('firefox.html'),
      '--into',
      'ff',
      '--strict',
      '--dry-run',
      ...remote(),
    ]);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toMatch(/2 skipped/);
    expect(run.stdout).toMatch(
      /line 24:13 {2}javascript:alert\(document.cookie\) {2}a script-capable URL/,
    );
    const { body } = await getConfig('ff');
    expect(Object.keys(body?.config.allLinks ?? {})).toEqual([
      'about_mozilla',
      'sourdough_bread',
      'minestrone',
      'mdn_web_docs',
      'something_to_read',
    ]);
  });

  it('imports CSV and JSON, and exits 0 when nothing was skipped', async () => {
    const csv = await runLinkconfig([
      'import',
      fixture('linkding.csv'),
      '--into',
      'ld',
      ...remote(),
      '--json',
    ]);
    expect(csv.code).toBe(0);
    expect(JSON.parse(csv.stdout)).toMatchObject({
      format: 'csv',
      added: ['github', 'https_example_org_only_url'],
      written: true,
    });
    const file = join(dir, 'site.txt');
    writeFileSync(
      file,
      JSON.stringify({
        allLinks: { a: { url: 'https://a.example/', tags: ['X Y'] } },
        macros: { m: { linkItems: '.x_y' } },
      }),
    );
    const json = await runLinkconfig([
      'import',
      file,
      '--into',
      'js',
      '--format',
      'json',
      ...remote(),
    ]);
    expect(json.code).toBe(0);
    const { body } = await getConfig('js');
    expect(body?.config).toEqual({
      allLinks: { a: { url: 'https://a.example/', tags: ['x_y'] } },
      macros: { m: { linkItems: '.x_y' } },
    });
  });

  it('a dry run reports and writes nothing', async () => {
    const run = await runLinkconfig([
      'import',
      fixture('pinboard.html'),
      '--into',
      'dry',
      '--dry-run',
      ...remote(),
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/3 added/);
    expect(run.stdout).toMatch(/dry run: nothing was written\n$/);
    expect((await getConfig('dry')).status).toBe(404);
  });

  it('merges into an existing config without duplicates when the same file comes twice', async () => {
    await runLinkconfig([
      'import',
      fixture('pinboard.html'),
      '--into',
      'twice',
      ...remote(),
    ]);
    const before = await getConfig('twice');
    const again = await runLinkconfig([
      'import',
      fixture('pinboard.html'),
      '--into',
      'twice',
      ...remote(),
      '--json',
    ]);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({
      added: [],
      merged: [{ id: 'typescript_docs' }, {}, {}],
    });
    const after = await getConfig('twice');
    expect(after.body).toEqual(before.body);
  });

  it('never overwrites an edit made between its read and its write (If-Match)', async () => {
    await runLinkconfig([
      'import',
      fixture('safari.html'),
      '--into',
      'race',
      ...remote(),
    ]);
    // The edit lands while the import waits for its first answer; the import still holds the old ETag.
    const edited = { allLinks: { mine: { url: 'https://mine.example/' } } };
    const realFetch = globalThis.fetch;
    let edit: Promise<Response> | undefined;
    globalThis.fetch = async (input, init) => {
      const response = await realFetch(input, init);
      if ((init?.method ?? 'GET') === 'GET' && edit === undefined) {
        edit = realFetch(`${server.url}/configs/race`, {
          method: 'PUT',
          headers: {
            Authorization: `Bearer ${KEY}`,
            'Content-Type': 'application/json',
          },
          body: JSON.stringify(edited),
        });
        await edit;
      }
      return response;
    };
    try {
      const run = await runLinkconfig([
        'import',
        fixture('pinboard.html'),
        '--into',
        'race',
        ...remote(),
      ]);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(
        /"race" changed while the file was read .*nothing was written/,
      );
    } finally {
      globalThis.fetch = realFetch;
    }
    expect((await getConfig('race')).body?.config).toEqual(edited);
  });

  it('shows a progress bar on a terminal for a large file, and stays quiet elsewhere', async () => {
    const file = join(dir, 'many.csv');
    const rows = Array.from(
      { length: 2500 },
      (_, i) => `https://many.example/${i},Link ${i}`,
    );
    writeFileSync(file, ['url,label', ...rows].join('\n'));
    const argv = ['import', file, '--into', 'many', '--dry-run', ...remote()];
    const terminal = await runLinkconfig(argv, {}, { tty: true });
    expect(terminal.code).toBe(0);
    expect(terminal.stderr).toContain('importing [');
    expect(terminal.stderr).toContain('2500/2500 links');
    const piped = await runLinkconfig(argv);
    expect(piped).toMatchObject({ code: 0, stderr: '' });
    expect(piped.stdout).toMatch(/2500 added/);
  });

  it('makes a config per top folder with --config-per-folder', async () => {
    const run = await runLinkconfig([
      'import',
      fixture('safari.html'),
      '--into',
      'safari',
      '--config-per-folder',
      '--json',
      ...remote(),
    ]);
    expect(run.code).toBe(0);
    const reports = JSON.parse(run.stdout) as {
      into: string;
      added: string[];
    }[];
    expect(reports.map((r) => [r.into, r.added])).toEqual([
      ['safari-favorites', ['apple', 'cafe_unicode']],
      ['safari-reading_list', ['a_long_read']],
    ]);
    const { body } = await getConfig('safari-reading_list');
    expect(body?.config.allLinks['a_long_read']?.tags).toBeUndefined();
  });

  it('says what the server refused: a wrong key', async () => {
    const run = await runLinkconfig([
      'import',
      fixture('pinboard.html'),
      '--into',
      'nokey',
      '--server',
      server.url,
      '--key',
      'wrong',
    ]);
    expect(run.code).toBe(1);
    // An unknown key is refused on every request, so the import stops at its first read.
    expect(run.stderr).toMatch(
      /^linkconfig: reading "nokey": the server answered 401/,
    );
  });
});

describe('linkconfig export', () => {
  it('writes JSON to stdout, and HTML and CSV to files that import back to the same links', async () => {
    const json = await runLinkconfig(['export', 'ff', ...remote()]);
    expect(json.code).toBe(0);
    const stored = (await getConfig('ff')).body?.config;
    expect(JSON.parse(json.stdout)).toEqual(stored);
    for (const format of ['html', 'csv']) {
      const out = join(dir, `ff.${format}`);
      const run = await runLinkconfig(['export', 'ff', '-o', out, ...remote()]);
      expect(run.code).toBe(0);
      expect(readFileSync(out, 'utf8')).toMatch(
        format === 'html'
          ? /^<!DOCTYPE NETSCAPE-Bookmark-file-1>/
          : /^id,url,label,tags,description\n/,
      );
      await runLinkconfig([
        'import',
        out,
        '--into',
        `back_${format}`,
        ...remote(),
      ]);
      const back = (await getConfig(`back_${format}`)).body?.config;
      // By id: the ids come back (a bookmark file groups links by folder, so its order differs).
      const byId = (config: typeof stored) =>
        Object.fromEntries(
          Object.entries(config?.allLinks ?? {}).map(([id, l]) => [
            id,
            [l.url, l.tags],
          ]),
        );
      expect(byId(back)).toEqual(byId(stored));
    }
  });

  it('says when the config does not exist', async () => {
    const run = await runLinkconfig(['export', 'nothing-here', ...remote()]);
    expect(run).toMatchObject({
      code: 1,
      stdout: '',
      stderr: 'linkconfig: there is no config "nothing-here"\n',
    });
  });
});

describe('linkconfig import and export straight into a database', () => {
  it('imports with --database-url and exports what it stored', async () => {
    const url = `sqlite:${join(dir, 'direct.db')}`;
    const run = await runLinkconfig([
      'import',
      fixture('chrome.html'),
      '--into',
      'direct',
      '--database-url',
      url,
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/3 added, 1 merged, 1 skipped/);
    const out = await runLinkconfig([
      'export',
      'direct',
      '--database-url',
      url,
      '--format',
      'csv',
    ]);
    expect(out.stdout.split('\n').slice(0, 2)).toEqual([
      'id,url,label,tags,description',
      'news,https://news.example.net/,News,other_bookmarks,',
    ]);
  });
});

describe('usage mistakes exit 2', () => {
  it.each([
    [['import', 'x.html'], /required option '--into <config>'/],
    [
      ['import', 'x.html', '--into', 'a', '--format', 'xml'],
      /argument 'xml' is invalid/,
    ],
    [
      ['import', 'x.html', '--into', 'a', '--mode', 'overwrite'],
      /argument 'overwrite' is invalid/,
    ],
    [
      ['import', join(dir, 'missing.html'), '--into', 'a'],
      /cannot read the file/,
    ],
    [
      [
        'import',
        fixture('pinboard.html'),
        '--into',
        'a',
        '--server',
        'http://x',
        '--database-url',
        'sqlite::memory:',
      ],
      /--database-url cannot be used with --server/,
    ],
    [['export'], /missing required argument 'config'/],
  ])('%j', async (argv, message) => {
    const run = await runLinkconfig(argv);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
  });

  it('refuses a 50 MB file with a clear message, exit 1', async () => {
    const big = join(dir, 'big.csv');
    writeFileSync(big, Buffer.alloc(50 * 1024 * 1024, 0x61));
    const run = await runLinkconfig([
      'import',
      big,
      '--into',
      'big',
      ...remote(),
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'linkconfig: the file is 50.0 MB; an import reads at most 20.0 MB (split it into smaller files)\n',
    );
  });
});
