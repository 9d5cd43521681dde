import { beforeEach, describe, expect, it } from 'vitest';
import type { LinkHealthRecord } from '@linkconfig/shared';
import type { ConfigRepository } from '../config-repository.js';
import type {
  RepositoryHarness,
  RepositoryScope,
} from './config-repository-fixtures.contract.js';
import type { LinkClaim } from '../link-health-store.js';

const NOW = Date.UTC(2026, 0, 2, 3, 4, 5);
const HOUR = 3_600_000;

const claimBy = (owner: string, over: Partial<LinkClaim> = {}): LinkClaim => ({
  owner,
  now: NOW,
  until: NOW + HOUR,
  limit: 100,
  perHost: 100,
  ...over,
});

const checked = (
  record: LinkHealthRecord,
  over: Partial<LinkHealthRecord> = {},
): LinkHealthRecord => ({
  ...record,
  state: 'ok',
  since: '2026-01-02T03:04:06.000Z',
  checkedAt: '2026-01-02T03:04:06.000Z',
  status: 200,
  finalUrl: record.url,
  reason: null,
  nextAt: NOW + 7 * 24 * HOUR,
  ...over,
});

const urls = (records: readonly LinkHealthRecord[]): string[] =>
  records.map((r) => r.url).sort();

/** Completes one check; whether its result was stored. */
const completeOne = async (
  store: ConfigRepository['linkHealth'],
  record: LinkHealthRecord,
  owner: string,
): Promise<boolean> => (await store.complete([record], owner)).has(record.url);

/** Link health: tracked URLs, due checks claimed under leases, results stored by the lease holder only. */
export function runLinkHealthContract(
  harness: RepositoryHarness,
  scope: RepositoryScope,
): void {
  describe('link health', () => {
    let repo: ConfigRepository;
    beforeEach(() => {
      repo = scope.repo;
    });

    it('tracks URLs as unchecked and due, keeps what it knows, and forgets URLs that are gone', async () => {
      const links = repo.linkHealth;
      expect(await links.urls()).toEqual([]);
      await links.track(['https://a.example/1', 'https://b.example/'], [], NOW);
      expect((await links.urls()).sort()).toEqual([
        'https://a.example/1',
        'https://b.example/',
      ]);
      const [first] = await links.get(['https://a.example/1', 'https://none/']);
      expect(first).toEqual({
        url: 'https://a.example/1',
        state: 'unchecked',
        since: null,
        checkedAt: null,
        status: null,
        finalUrl: null,
        reason: null,
        failingSince: null,
        failures: 0,
        nextAt: NOW,
      });
      const [claimed] = await links.claim(claimBy('me', { limit: 1 }));
      expect(claimed?.url).toBe('https://a.example/1');
      await completeOne(links, checked(first as LinkHealthRecord), 'me');
      // Tracking a known URL again leaves its record alone.
      await links.track(
        ['https://a.example/1'],
        ['https://b.example/'],
        NOW + 5,
      );
      expect((await links.get(['https://a.example/1']))[0]?.state).toBe('ok');
      expect(await links.urls()).toEqual(['https://a.example/1']);
      expect(urls(await links.withStates(['ok', 'broken']))).toEqual([
        'https://a.example/1',
      ]);
      expect(await links.withStates(['unchecked'])).toEqual([]);
    });

    it('claims what is due, earliest first, each URL once, at most perHost of a host', async () => {
      const links = repo.linkHealth;
      const many = Array.from(
        { length: 6 },
        (_, i) => `https://one.example/${i}`,
      );
      await links.track([...many, 'https://two.example/'], [], NOW);
      await links.track(['https://later.example/'], [], NOW + HOUR);
      const first = await links.claim(claimBy('me', { perHost: 2 }));
      expect(urls(first)).toEqual([
        'https://one.example/0',
        'https://one.example/1',
        'https://two.example/',
      ]);
      // Leased URLs are not claimed again, by anyone, while the lease lives.
      const second = await links.claim(claimBy('me', { perHost: 2 }));
      expect(urls(second)).toEqual([
        'https://one.example/2',
        'https://one.example/3',
      ]);
      const third = await links.claim(claimBy('me', { limit: 1 }));
      expect(urls(third)).toEqual(['https://one.example/4']);
    });

    it('gives no URL of a host another owner holds a live lease on; a lease that ran out frees it', async () => {
      const links = repo.linkHealth;
      await links.track(
        [
          'https://one.example/a',
          'https://one.example/b',
          'https://two.example/',
        ],
        [],
        NOW,
      );
      expect(urls(await links.claim(claimBy('a', { perHost: 1 })))).toEqual([
        'https://one.example/a',
        'https://two.example/',
      ]);
      expect(await links.claim(claimBy('b'))).toEqual([]);
      const later = NOW + HOUR;
      expect(
        urls(
          await links.claim(claimBy('b', { now: later, until: later + HOUR })),
        ),
      ).toEqual([
        'https://one.example/a',
        'https://one.example/b',
        'https://two.example/',
      ]);
    });

    it('stores a result only for the holder of the lease, and ends the lease', async () => {
      const links = repo.linkHealth;
      await links.track(['https://a.example/'], [], NOW);
      const [record] = await links.claim(claimBy('a', { until: NOW + 10 }));
      if (record === undefined) throw new Error('nothing claimed');
      // The lease runs out and b takes the URL: a's late result is dropped.
      expect(urls(await links.claim(claimBy('b', { now: NOW + 10 })))).toEqual([
        'https://a.example/',
      ]);
      expect(await completeOne(links, checked(record), 'a')).toBe(false);
      expect(
        await completeOne(links, checked(record, { status: 204 }), 'b'),
      ).toBe(true);
      expect((await links.get([record.url]))[0]?.status).toBe(204);
      // The lease has ended: a second result under it is not stored.
      expect(
        await completeOne(links, checked(record, { status: 500 }), 'b'),
      ).toBe(false);
      await links.track([], [record.url], NOW);
      expect(await completeOne(links, checked(record), 'b')).toBe(false);
    });

    it('makes tracked URLs due on demand, never later than they were', async () => {
      const links = repo.linkHealth;
      await links.track(['https://a.example/', 'https://b.example/'], [], NOW);
      for (const record of await links.claim(claimBy('me')))
        await completeOne(links, checked(record), 'me');
      expect(await links.claim(claimBy('me', { now: NOW + 1 }))).toEqual([]);
      expect(
        await links.schedule(
          ['https://a.example/', 'https://none.example/'],
          NOW + 1,
        ),
      ).toBe(1);
      expect(urls(await links.claim(claimBy('me', { now: NOW + 1 })))).toEqual([
        'https://a.example/',
      ]);
    });

    it('ends the lease of a URL asked for during its check: the late result is dropped, the URL stays due', async () => {
      const links = repo.linkHealth;
      await links.track(['https://a.example/'], [], NOW);
      const [record] = await links.claim(claimBy('me'));
      if (record === undefined) throw new Error('nothing claimed');
      expect(await links.schedule([record.url], NOW + 5)).toBe(1);
      expect(await completeOne(links, checked(record), 'me')).toBe(false);
      expect(urls(await links.claim(claimBy('me', { now: NOW + 5 })))).toEqual([
        'https://a.example/',
      ]);
    });

    it('stores several results in one call, each only under its own lease', async () => {
      const links = repo.linkHealth;
      await links.track(
        ['https://a.example/', 'https://b.example/', 'https://c.example/'],
        [],
        NOW,
      );
      const mine = await links.claim(claimBy('me', { limit: 2 }));
      const [theirs] = await links.claim(claimBy('them'));
      if (theirs === undefined) throw new Error('nothing left to claim');
      const stored = await links.complete(
        [...mine, theirs].map((r) => checked(r, { status: 203 })),
        'me',
      );
      expect([...stored].sort()).toEqual(urls(mine));
      expect((await links.get([theirs.url]))[0]?.status).toBeNull();
      expect(await links.complete([], 'me')).toEqual(new Set());
    });

    it('puts records back as they were (restore) and lists them all by URL', async () => {
      const links = repo.linkHealth;
      const records = [
        checked(
          { url: 'https://b.example/', nextAt: NOW } as LinkHealthRecord,
          {
            state: 'broken',
            status: 404,
            reason: 'HTTP 404',
            failingSince: null,
            failures: 2,
          },
        ),
        checked(
          { url: 'https://a.example/x?y=1', nextAt: NOW } as LinkHealthRecord,
          {
            state: 'redirected',
            finalUrl: 'https://a.example/z',
            failingSince: '2026-01-01T00:00:00.000Z',
            failures: 1,
          },
        ),
      ];
      await links.putAll(records);
      expect(await links.all()).toEqual([records[1], records[0]]);
    });

    it('keeps what it knows across a restart, and several instances claim each URL once', async () => {
      if (harness.connect === undefined) return;
      const links = repo.linkHealth;
      const all = Array.from(
        { length: 40 },
        (_, i) => `https://h${i % 8}.example/${i}`,
      );
      await links.track(all, [], NOW);
      const other = scope.track(await harness.connect(repo));
      const stores = [links, other.linkHealth, links];
      const claimed: string[] = [];
      const ownersOfHost = new Map<string, Set<string>>();
      let byB: LinkHealthRecord | undefined;
      for (let round = 0; claimed.length < all.length && round < 10; round++) {
        const claims = await Promise.all(
          ['a', 'b', 'c'].map((owner, i) =>
            (stores[i] ?? links).claim(
              claimBy(owner, { perHost: 5, limit: 16 }),
            ),
          ),
        );
        claims.forEach((list, i) => {
          const owner = 'abc'[i] ?? '';
          for (const r of list) {
            const host = new URL(r.url).hostname;
            ownersOfHost.set(
              host,
              (ownersOfHost.get(host) ?? new Set()).add(owner),
            );
          }
        });
        // No host is held by two owners in one round.
        for (const owners of ownersOfHost.values()) expect(owners.size).toBe(1);
        ownersOfHost.clear();
        for (const [i, list] of claims.entries()) {
          for (const r of list) {
            claimed.push(r.url);
            const owner = 'abc'[i] ?? '';
            const store = stores[i] ?? links;
            expect(
              await completeOne(store, checked(r, { status: 201 }), owner),
            ).toBe(true);
            if (owner === 'b') byB ??= r;
          }
        }
      }
      expect(new Set(claimed).size).toBe(claimed.length);
      expect(claimed.sort()).toEqual([...all].sort());
      if (byB === undefined) throw new Error('b claimed nothing');
      const one = byB;
      await other.close();
      const reopened = scope.track(await harness.connect(repo));
      expect((await reopened.linkHealth.get([one.url]))[0]?.status).toBe(201);
    });
  });
}
