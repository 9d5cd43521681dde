import { describe, expect, it } from 'vitest';
import { createMemoryConfigRepository } from '../src/storage/memory/memory-config-repository.js';
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
