import { describe, expect, it } from 'vitest';
import { runConfigStoreContract } from '../testing/config-store.contract.js';
import { createMemoryStore } from './memory-store.js';

runConfigStoreContract('memory store', async () => ({
  store: createMemoryStore(),
}));

describe('createMemoryStore', () => {
  it('starts with the given entries', async () => {
    const meta = {
      createdAt: '2020-01-01T00:00:00.000Z',
      updatedAt: '2020-01-02T00:00:00.000Z',
    };
    const store = createMemoryStore({
      initial: { seeded: { config: { allLinks: {} }, meta } },
    });
    expect(await store.loadEntry('seeded')).toEqual({
      config: { allLinks: {} },
      meta,
    });
  });

  it('keeps its own copy, so changing a saved or loaded object changes nothing stored', async () => {
    const store = createMemoryStore();
    const config = { allLinks: { a: { url: 'https://a.example' } } };
    await store.save('n', config);
    config.allLinks.a.url = 'https://changed.example';
    const loaded = await store.load('n');
    if (loaded?.allLinks['a']) loaded.allLinks['a'].url = 'https://again';
    expect((await store.load('n'))?.allLinks['a']?.url).toBe(
      'https://a.example',
    );
  });
});
