import { describe, expect, it } from 'vitest';
import { createServices } from '../src/services/services.js';
import type { ConfigRepository } from '../src/storage/config-repository.js';
import { createMemoryConfigRepository } from '../src/storage/memory/memory-config-repository.js';
import { createTestApp } from './test-app.js';

/** The reads a repository is asked for, by method, with the names asked for one by one. */
interface Reads {
  listVersions: number;
  list: number;
  version: string[];
  get: string[];
}

/** A memory repository that counts the reads of names, versions and configs (issue 23, item 5). */
function countingRepository(): { repository: ConfigRepository; reads: Reads } {
  const inner = createMemoryConfigRepository();
  const reads: Reads = { listVersions: 0, list: 0, version: [], get: [] };
  const repository: ConfigRepository = {
    ...inner,
    listVersions: () => {
      reads.listVersions++;
      return inner.listVersions();
    },
    list: () => {
      reads.list++;
      return inner.list();
    },
    version: (name) => {
      reads.version.push(name);
      return inner.version(name);
    },
    get: (name) => {
      reads.get.push(name);
      return inner.get(name);
    },
  };
  return { repository, reads };
}

const config = (tag: string) => ({
  allLinks: {
    [`${tag}1`]: { url: `https://${tag}.example/1`, tags: [tag] },
    [`${tag}2`]: { url: `https://${tag}.example/2`, tags: [tag, 'x'] },
  },
});

/** A store of `count` configs `c0`, `c1`, … written through one server, read by a fresh one. */
async function restarted(count: number) {
  const { repository, reads } = countingRepository();
  const writer = createServices({ repository });
  for (let i = 0; i < count; i++)
    await writer.configs.put(`c${i}`, config(`t${i}`));
  Object.assign(reads, { listVersions: 0, list: 0, version: [], get: [] });
  return { reads, t: createTestApp({ repository }) };
}

describe('the first reads after a start', () => {
  it('a first POST /query on one config reads that config only, not every name', async () => {
    const { reads, t } = await restarted(50);
    const response = await t.post('/query', {
      expression: '.t7',
      configName: 'c7',
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      results: [
        { id: 't71', url: 'https://t7.example/1', tags: ['t7'] },
        { id: 't72', url: 'https://t7.example/2', tags: ['t7', 'x'] },
      ],
    });
    expect(reads).toEqual({
      listVersions: 0,
      list: 0,
      version: ['c7'],
      get: ['c7'],
    });
  });

  it('so do a first GET /configs/{name} and /cherry-pick, and a query of a missing name', async () => {
    const { reads, t } = await restarted(20);
    expect((await t.request('/configs/c3')).status).toBe(200);
    expect(
      (await t.post('/cherry-pick', { source: 'c4', expression: 't41' }))
        .status,
    ).toBe(200);
    expect(
      (await t.post('/query', { expression: 'a', configName: 'nope' })).status,
    ).toBe(404);
    expect(reads).toEqual({
      listVersions: 0,
      list: 0,
      version: ['c3', 'c4', 'nope'],
      get: ['c3', 'c4'],
    });
  });

  it('keeps the versions it read one by one until a write, then reads the written one again', async () => {
    const { reads, t } = await restarted(3);
    const query = (expression: string) =>
      t.json<{ results: { id: string }[] }>('/query', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ expression, configName: 'c1' }),
      });
    await query('t11');
    await query('t12');
    expect(reads.version).toEqual(['c1']);
    expect((await t.put('c1', config('u'))).status).toBe(204);
    expect((await query('.u')).body.results.map((r) => r.id)).toEqual([
      'u1',
      'u2',
    ]);
    expect(reads.version).toEqual(['c1', 'c1']);
    expect(reads.listVersions).toBe(0);
  });

  it('a search reads every name once, and later reads of one name are answered from that list', async () => {
    const { reads, t } = await restarted(5);
    const found = await t.json<{ results: unknown[] }>('/search?tag=x');
    expect(found.body.results).toHaveLength(5);
    expect(
      (await t.post('/query', { expression: '.t2', configName: 'c2' })).status,
    ).toBe(200);
    expect(reads.listVersions).toBe(1);
    expect(reads.version).toEqual([]);
  });

  it('sees a write of another process at once, whether it read one name or every name', async () => {
    const { repository } = countingRepository();
    const other = createServices({ repository });
    const t = createTestApp({ repository });
    await other.configs.put('a', config('a'));
    expect(
      (await t.post('/query', { expression: '.a', configName: 'a' })).status,
    ).toBe(200);
    await other.configs.put('a', config('b'));
    const after = await t.json<{ results: { id: string }[] }>('/query', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ expression: '.b', configName: 'a' }),
    });
    expect(after.body.results.map((r) => r.id)).toEqual(['b1', 'b2']);
    await other.configs.put('z', config('z'));
    expect((await t.json<string[]>('/configs')).body).toEqual(['a', 'z']);
    await other.configs.remove('a');
    expect(
      (await t.post('/query', { expression: '.b', configName: 'a' })).status,
    ).toBe(404);
  });
});
