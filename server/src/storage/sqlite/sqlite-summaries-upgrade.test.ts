/**
 * Issue 29, item 2, on an existing database: the summary columns are added empty (no pass over the rows,
 * so a long history opens at once), and the first page that lists the old revisions fills them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { createServices } from '../../services/services.js';
import { createSqliteConfigRepository } from './sqlite-config-repository.js';
import { MIGRATIONS } from './sqlite-migrations.js';

const dir = mkdtempSync(join(tmpdir(), 'linkconfig-summaries-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const links = (n: number) =>
  JSON.stringify({
    allLinks: Object.fromEntries(
      Array.from({ length: n }, (_, i) => [`l${i}`, { url: `https://x/${i}` }]),
    ),
  });

describe('sqlite: revision summaries on a database from before them', () => {
  it('adds the columns empty and lets history fill them', async () => {
    const path = join(dir, 'old.db');
    const repo = createSqliteConfigRepository({ path });
    await repo.put('menu', links(3));
    await repo.put('menu', links(5));
    await repo.close();
    // Back to the release before summaries.
    const old = new Database(path);
    for (const column of ['added', 'removed', 'changed', 'links']) {
      old.exec(`ALTER TABLE revisions DROP COLUMN ${column}`);
    }
    old.pragma(`user_version = ${MIGRATIONS.length - 1}`);
    old.close();

    const upgraded = createSqliteConfigRepository({ path });
    expect(await upgraded.summaries('menu', { from: 1, to: 2 })).toEqual(
      new Map(),
    );
    const services = createServices({ repository: upgraded });
    const page = await services.history.history('menu', { limit: 10 });
    expect(page.revisions.map((r) => r.summary)).toEqual([
      { added: 2, removed: 0, changed: 0 },
      { added: 3, removed: 0, changed: 0 },
    ]);
    expect(
      Object.fromEntries(await upgraded.summaries('menu', { from: 1, to: 2 })),
    ).toEqual({
      1: { added: 3, removed: 0, changed: 0, links: 3 },
      2: { added: 2, removed: 0, changed: 0, links: 5 },
    });
    await upgraded.close();
  });
});
