/**
 * `linkconfig export` says what a format does not carry before it writes (on stderr, so stdout stays the
 * file), and bookmarks carry ids, folders by tag and line breaks (issue 29, item 10).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRepository } from '../src/storage/open-repository.js';
import { runLinkconfig } from './cli-run.js';

const dir = mkdtempSync(join(tmpdir(), 'linkconfig-cli-export-'));
const database = ['--database-url', `sqlite:${join(dir, 'links.db')}`];
afterAll(() => rmSync(dir, { recursive: true, force: true }));

beforeAll(async () => {
  const repository = await openRepository(`sqlite:${join(dir, 'links.db')}`);
  await repository.put(
    'site',
    JSON.stringify({
      allLinks: {
        home: { url: 'https://a.example/', label: 'Home', tags: ['main'] },
        docs: {
          url: 'https://b.example/',
          label: 'Docs',
          description: 'one\ntwo',
          cssClass: 'wide',
        },
        blog: { url: 'https://c.example/', label: 'Blog', tags: ['main'] },
      },
      macros: { m: { linkItems: '.main' } },
    }),
  );
  await repository.close();
});

describe('linkconfig export', () => {
  it('says on stderr what CSV leaves out, and writes the file to stdout', async () => {
    const run = await runLinkconfig([
      'export',
      'site',
      '--format',
      'csv',
      ...database,
    ]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(
      [
        'CSV does not carry all of "site":',
        "  - the config's macros (CSV holds links only; JSON keeps them)",
        '  - link fields: cssClass (1 link)',
        '',
      ].join('\n'),
    );
    expect(run.stdout).toContain('docs,https://b.example/,Docs,,"one\ntwo"\n');
  });

  it('writes bookmarks with ids, folders by tag and <BR>, and says the order changes', async () => {
    const file = join(dir, 'site.html');
    const run = await runLinkconfig([
      'export',
      'site',
      '-o',
      file,
      ...database,
    ]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      'the order of links: the file groups them into folders by tag',
    );
    const html = readFileSync(file, 'utf8');
    expect(html).toContain('<DT><H3>main</H3>');
    expect(html).toContain('ID="docs"');
    expect(html).toContain('<DD>one<BR>two');
    const flat = await runLinkconfig([
      'export',
      'site',
      '--format',
      'html',
      '--no-folders',
      ...database,
    ]);
    expect(flat.stdout).not.toContain('<H3>');
    expect(flat.stderr).not.toContain('order');
  });

  it('says nothing for JSON, which carries everything', async () => {
    const run = await runLinkconfig(['export', 'site', ...database]);
    expect(run).toMatchObject({ code: 0, stderr: '' });
  });
});
