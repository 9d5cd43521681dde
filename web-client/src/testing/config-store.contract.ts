/**
 * The one behaviour suite every ConfigStore implementation runs: IndexedDB, remote
 * and hybrid stores all call {@link runConfigStoreContract}.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LinkConfig } from '@linkconfig/shared';
import type { ConfigStore } from '../config-store.js';

/** A fresh, empty store per test, and how to dispose of it. */
export interface StoreFixture {
  store: ConfigStore;
  dispose?: () => Promise<void> | void;
  /**
   * Another writer of the same server, and how to wait until the store delivered its writes: needed by
   * the two-writer promises (see {@link ContractOptions}).
   */
  peer?: {
    write(name: string, config: LinkConfig): Promise<void>;
    read(name: string): Promise<LinkConfig | null>;
  };
  settle?: () => Promise<void>;
}

/** Which promises beyond the basic ones a store kind makes. */
export interface ContractOptions {
  /**
   * The store syncs with a server that others write to, and merges their changes with its own (the
   * hybrid store, H21): its fixtures provide `peer` and `settle`.
   */
  twoWriters?: boolean;
}

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const sample = (label: string): LinkConfig => ({
  allLinks: { home: { url: 'https://example.com/', label, tags: ['x'] } },
  macros: { m: { linkItems: '.x' } },
});

/** Runs the ConfigStore contract against stores made by `factory`. */
export function runConfigStoreContract(
  name: string,
  factory: () => Promise<StoreFixture>,
  options: ContractOptions = {},
): void {
  describe(`ConfigStore contract: ${name}`, () => {
    let fixture: StoreFixture;
    let store: ConfigStore;

    beforeEach(async () => {
      fixture = await factory();
      store = fixture.store;
    });
    afterEach(async () => {
      await fixture.dispose?.();
    });

    if (options.twoWriters) {
      it("keeps another writer's change to another link: no false conflict (H21)", async () => {
        const { peer, settle } = fixture;
        if (!peer || !settle)
          throw new Error('twoWriters needs peer and settle');
        const link = (id: string, label: string) => ({
          url: `https://${id}.example/`,
          label,
        });
        await store.save('shared', {
          allLinks: { a: link('a', 'A'), b: link('b', 'B') },
        });
        await settle();
        await peer.write('shared', {
          allLinks: { a: link('a', 'A'), b: link('b', 'B by the other') },
        });
        await store.save('shared', {
          allLinks: { a: link('a', 'A here'), b: link('b', 'B') },
        });
        await settle();
        const both = {
          allLinks: { a: link('a', 'A here'), b: link('b', 'B by the other') },
        };
        expect(await peer.read('shared')).toEqual(both);
        expect(await store.load('shared')).toEqual(both);
      });
    }

    it('returns null for a name that was never saved', async () => {
      expect(await store.load('missing')).toBeNull();
      expect(await store.loadEntry('missing')).toBeNull();
    });

    it('loads what was saved, unknown keys and key order included', async () => {
      const config = {
        zeta: 1,
        ...sample('Home'),
        name: 'inner name',
        alpha: [1, 2],
      } as LinkConfig;
      await store.save('first', config);
      const loaded = await store.load('first');
      expect(loaded).toEqual(config);
      expect(Object.keys(loaded ?? {})).toEqual(Object.keys(config));
    });

    it('gives an entry with ISO time stamps and keeps createdAt on overwrite', async () => {
      await store.save('dated', sample('one'));
      const first = await store.loadEntry('dated');
      expect(first?.meta.createdAt).toMatch(ISO_MS);
      expect(first?.meta.updatedAt).toMatch(ISO_MS);
      await store.save('dated', sample('two'));
      const second = await store.loadEntry('dated');
      expect(second?.config.allLinks['home']?.label).toBe('two');
      expect(second?.meta.createdAt).toBe(first?.meta.createdAt);
      expect(
        second && first && second.meta.updatedAt >= first.meta.updatedAt,
      ).toBe(true);
    });

    it('lists saved names sorted by code point', async () => {
      for (const n of ['b', 'a b', 'Z', 'é', 'a'])
        await store.save(n, sample(n));
      expect(await store.list()).toEqual(['Z', 'a', 'a b', 'b', 'é']);
    });

    it('round-trips names with slashes, percent signs and unicode', async () => {
      for (const n of ['a/b', '100%', 'ünï cødé', '%2F']) {
        await store.save(n, sample(n));
        expect((await store.load(n))?.allLinks['home']?.label).toBe(n);
      }
      expect(await store.list()).toEqual(['%2F', '100%', 'a/b', 'ünï cødé']);
    });

    it('removes a name and treats removing a missing name as a no-op', async () => {
      await store.save('gone', sample('x'));
      await store.remove('gone');
      expect(await store.load('gone')).toBeNull();
      expect(await store.list()).toEqual([]);
      await expect(store.remove('never-there')).resolves.toBeUndefined();
    });

    it('hands out sanitized URLs while keeping what was saved otherwise', async () => {
      const config = {
        allLinks: {
          bad: {
            url: 'javascript:alert(1)',
            image: ' JavaScript:alert(2)',
            thumbnail: 'data:text/html,x',
            label: 'javascript:is only text here',
          },
          good: { url: 'https://example.com/a?b=c', image: '/rel.png' },
        },
      } as LinkConfig;
      await store.save('urls', config);
      const expected = {
        allLinks: {
          bad: {
            url: 'about:blank',
            image: 'about:blank',
            thumbnail: 'about:blank',
            label: 'javascript:is only text here',
          },
          good: { url: 'https://example.com/a?b=c', image: '/rel.png' },
        },
      };
      expect(await store.load('urls')).toEqual(expected);
      expect((await store.loadEntry('urls'))?.config).toEqual(expected);
    });
  });
}
