import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createServices } from '../src/services/services.js';
import type { ConfigRepository } from '../src/storage/config-repository.js';
import { createMemoryConfigRepository } from '../src/storage/memory/memory-config-repository.js';
import { createSqliteConfigRepository } from '../src/storage/sqlite/sqlite-config-repository.js';
import { createTestApp } from './test-app.js';

/** A memory repository that counts how often the change token is asked. */
function countingRepository() {
  const inner = createMemoryConfigRepository();
  const counter = { reads: 0 };
  const repository = {
    ...inner,
    changeToken: () => {
      counter.reads++;
      return inner.changeToken();
    },
  };
  return { repository, counter };
}

const config = (tag: string) => ({
  allLinks: { [tag]: { url: `https://${tag}.example`, tags: ['t'] } },
});

describe('the change token is read once per request', () => {
  it.each([
    ['GET /configs', '/configs', undefined],
    ['GET /configs/{name}', '/configs/a', undefined],
    ['GET /search', '/search?tag=t', undefined],
    [
      'POST /query over several configs',
      '/query',
      { expression: '.t', configs: ['a', 'b', 'c'] },
    ],
    ['POST /cherry-pick', '/cherry-pick', { source: 'a', expression: '.t' }],
  ])('%s', async (_, path, body) => {
    const { repository, counter } = countingRepository();
    const t = createTestApp({ repository });
    for (const name of ['a', 'b', 'c']) await t.put(name, config(name));
    counter.reads = 0;
    const response =
      body === undefined ? await t.request(path) : await t.post(path, body);
    expect(response.status).toBe(200);
    expect(counter.reads).toBe(1);
  });
});

const dir = mkdtempSync(join(tmpdir(), 'linkconfig-state-token-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The reads whose whole answers are kept (`response-reuse.ts`), and what each must show of config `n`. */
const KEPT_READS: readonly (readonly [string, (body: string) => boolean])[] = [
  ['/configs', (body) => body.includes('"n"')],
  ['/search?tag=t', (body) => body.includes('n.example')],
  ['/configs/n', (body) => body.includes('n.example')],
];

/**
 * An app over one connection to a SQLite file and a writer over another (as the CLI or a second
 * instance would be): after each read is answered (and kept), the writer commits `n`; the very next
 * request of each read must show it. `keep` wraps the app's repository (the real one: unchanged).
 */
async function nextReads(
  file: string,
  keep: (repository: ConfigRepository) => ConfigRepository,
): Promise<boolean[]> {
  const path = join(dir, file);
  const repository = createSqliteConfigRepository({ path });
  const t = createTestApp({ repository: keep(repository) });
  const writer = createSqliteConfigRepository({ path });
  const other = createServices({ repository: writer });
  await t.put('a', config('a'));
  for (const [read] of KEPT_READS) await t.request(read);
  await other.configs.put('n', config('n'));
  const seen: boolean[] = [];
  for (const [read, shows] of KEPT_READS) {
    seen.push(shows(await (await t.request(read)).text()));
  }
  await Promise.all([repository.close(), writer.close()]);
  return seen;
}

describe('a commit through another connection', () => {
  it('is seen by the very next request of every kept read', async () => {
    expect(await nextReads('next.db', (r) => r)).toEqual([true, true, true]);
  });

  // The check above can fail: with the token kept from one request to the next instead of read for
  // each, the same requests answer from before the commit.
  it('would not be seen if the token were kept longer than a request', async () => {
    const keptOnceRead = (repository: ConfigRepository): ConfigRepository => {
      let kept: Promise<string> | undefined;
      return {
        ...repository,
        changeToken: () => (kept ??= repository.changeToken()),
      };
    };
    expect(await nextReads('stale.db', keptOnceRead)).toEqual([
      false,
      false,
      false,
    ]);
  });
});
