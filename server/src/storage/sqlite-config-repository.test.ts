import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runConfigRepositoryContract } from './config-repository.contract.js';
import { createSqliteConfigRepository } from './sqlite-config-repository.js';

const dir = mkdtempSync(join(tmpdir(), 'linkconfig-sqlite-'));
let n = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

runConfigRepositoryContract('sqlite', {
  create: () =>
    createSqliteConfigRepository({ path: join(dir, `repo-${++n}.db`) }),
});

describe('sqlite repository', () => {
  it('keeps data and versions across reopen, creating missing folders', async () => {
    const path = join(dir, 'nested', 'deeper', 'db.sqlite');
    const first = createSqliteConfigRepository({ path });
    const put = await first.put('n', '{"allLinks":{}}', new Date(0));
    await first.close();
    const second = createSqliteConfigRepository({ path });
    expect((await second.get('n'))?.json).toBe('{"allLinks":{}}');
    const next = await second.put('m', '{}', new Date(0));
    expect(next.version).toBeGreaterThan(put.version);
    await second.close();
  });
});
