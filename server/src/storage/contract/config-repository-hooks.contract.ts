import { beforeEach, describe, expect, it } from 'vitest';
import type { ConfigRepository } from '../config-repository.js';
import type { HookClaim, StoredDelivery, StoredHook } from '../hook-store.js';
import type {
  RepositoryHarness,
  RepositoryScope,
} from './config-repository-fixtures.contract.js';

const NOW = Date.UTC(2026, 0, 2, 3, 4, 5);
const MINUTE = 60_000;

const hook = (id: string, over: Partial<StoredHook> = {}): StoredHook => ({
  id,
  url: `https://receiver.example/${id}`,
  events: ['change', 'link-broken'],
  configs: ['site-a/*'],
  secret: `whsec_${id}`,
  createdAt: '2026-01-02T03:04:05.000Z',
  cursor: 0,
  attempts: 0,
  failingSince: null,
  nextAt: NOW,
  lastError: null,
  ...over,
});

const claimBy = (owner: string, over: Partial<HookClaim> = {}): HookClaim => ({
  owner,
  now: NOW,
  until: NOW + MINUTE,
  head: 10,
  limit: 100,
  ...over,
});

const delivery = (
  hookId: string,
  eventId: number,
  over: Partial<StoredDelivery> = {},
): StoredDelivery => ({
  hookId,
  eventId,
  type: 'change',
  attempt: 1,
  at: '2026-01-02T03:04:06.000Z',
  status: 200,
  error: null,
  durationMs: 12,
  ...over,
});

const ids = (hooks: readonly StoredHook[]): string[] => hooks.map((h) => h.id);

/** Webhooks: stored as given, leased to one instance at a time, moved on only by the lease holder. */
export function runHooksContract(
  harness: RepositoryHarness,
  scope: RepositoryScope,
): void {
  describe('hooks', () => {
    let repo: ConfigRepository;
    beforeEach(() => {
      repo = scope.repo;
    });

    it('stores hooks as given, lists them oldest first, and removes them with their log', async () => {
      const { hooks } = repo;
      expect(await hooks.list()).toEqual([]);
      const b = hook('b', { createdAt: '2026-01-03T00:00:00.000Z' });
      const a = hook('a', {
        events: ['publish'],
        configs: ['docs', 'site-b/*'],
      });
      await hooks.insert(b);
      await hooks.insert(a);
      await expect(hooks.insert(a)).rejects.toThrow();
      expect(await hooks.list()).toEqual([a, b]);
      expect(await hooks.get('a')).toEqual(a);
      expect(await hooks.get('nope')).toBeNull();
      await hooks.record([delivery('a', 1)], 10);
      expect(await hooks.remove('a')).toBe(true);
      expect(await hooks.remove('a')).toBe(false);
      expect(await hooks.get('a')).toBeNull();
      expect(await hooks.deliveries('a', 10)).toEqual([]);
      expect(ids(await hooks.list())).toEqual(['b']);
    });

    it('tells whether a hook that delivers (one with a secret) is stored', async () => {
      const { hooks } = repo;
      expect(await hooks.anyDeliverable()).toBe(false);
      await hooks.insert(hook('restored', { secret: null }));
      expect(await hooks.anyDeliverable()).toBe(false);
      await hooks.insert(hook('live'));
      expect(await hooks.anyDeliverable()).toBe(true);
      await hooks.remove('live');
      expect(await hooks.anyDeliverable()).toBe(false);
      await hooks.putAll([hook('restored')]);
      expect(await hooks.anyDeliverable()).toBe(true);
    });

    it('claims only hooks behind the head, due, with a secret and no live lease of another owner', async () => {
      const { hooks } = repo;
      await hooks.insert(hook('due'));
      await hooks.insert(hook('caught-up', { cursor: 10 }));
      await hooks.insert(hook('later', { nextAt: NOW + MINUTE }));
      await hooks.insert(hook('restored', { secret: null }));
      expect(ids(await hooks.claim(claimBy('one')))).toEqual(['due']);
      // Another instance gets nothing while the lease lives; the holder may claim again (renewal).
      expect(await hooks.claim(claimBy('two'))).toEqual([]);
      expect(ids(await hooks.claim(claimBy('one')))).toEqual(['due']);
      // Once it ends, another instance may take it.
      const after = claimBy('two', {
        now: NOW + 2 * MINUTE,
        until: NOW + 3 * MINUTE,
      });
      expect(ids(await hooks.claim(after))).toEqual(['due', 'later']);
      expect(ids(await hooks.claim(claimBy('one', { head: 11 })))).toEqual([
        'caught-up',
      ]);
    });

    it('moves a hook on only under its lease, and a released hook may be claimed by another', async () => {
      const { hooks } = repo;
      await hooks.insert(hook('h'));
      const progress = {
        cursor: 4,
        attempts: 2,
        failingSince: '2026-01-02T03:04:06.000Z',
        nextAt: NOW,
        lastError: 'HTTP 500',
      };
      expect(
        await hooks.advance('h', progress, { owner: 'one', release: false }),
      ).toBe(false);
      await hooks.claim(claimBy('one'));
      expect(
        await hooks.advance('h', progress, { owner: 'two', release: false }),
      ).toBe(false);
      expect(
        await hooks.advance('h', progress, { owner: 'one', release: false }),
      ).toBe(true);
      expect(await hooks.get('h')).toEqual(hook('h', progress));
      expect(await hooks.claim(claimBy('two'))).toEqual([]);
      expect(
        await hooks.advance(
          'h',
          { ...progress, cursor: 5 },
          { owner: 'one', release: true },
        ),
      ).toBe(true);
      expect(ids(await hooks.claim(claimBy('two')))).toEqual(['h']);
      expect(
        await hooks.advance('nope', progress, { owner: 'two', release: true }),
      ).toBe(false);
    });

    it('keeps the newest deliveries of each hook, newest first, and none of an unknown hook', async () => {
      const { hooks } = repo;
      await hooks.insert(hook('a'));
      await hooks.insert(hook('b'));
      await hooks.record(
        [
          delivery('a', 1, { status: 500, error: 'HTTP 500' }),
          delivery('a', 1, { attempt: 2, status: null, error: 'timeout' }),
          delivery('b', 1),
          delivery('ghost', 1),
        ],
        3,
      );
      await hooks.record(
        [delivery('a', 1, { attempt: 3 }), delivery('a', 2)],
        3,
      );
      const log = await hooks.deliveries('a', 10);
      expect(log.map((d) => [d.eventId, d.attempt])).toEqual([
        [2, 1],
        [1, 3],
        [1, 2],
      ]);
      expect(log[2]).toEqual({
        eventId: 1,
        type: 'change',
        attempt: 2,
        at: '2026-01-02T03:04:06.000Z',
        status: null,
        error: 'timeout',
        durationMs: 12,
      });
      expect(await hooks.deliveries('a', 1)).toHaveLength(1);
      expect(await hooks.deliveries('b', 10)).toHaveLength(1);
      expect(await hooks.deliveries('ghost', 10)).toEqual([]);
    });

    it('restores hooks as they are, replacing those of the same id, without their leases', async () => {
      const { hooks } = repo;
      await hooks.insert(hook('a'));
      await hooks.claim(claimBy('one'));
      const restored = [hook('a', { cursor: 7, secret: null }), hook('c')];
      await hooks.putAll(restored);
      expect(await hooks.list()).toEqual(restored);
      expect(ids(await hooks.claim(claimBy('two')))).toEqual(['c']);
    });

    if (harness.connect !== undefined) {
      const connect = harness.connect;
      it('leases a hook to one of two instances sharing the database', async () => {
        await repo.hooks.insert(hook('shared'));
        const other = scope.track(await connect(repo));
        const [mine, theirs] = await Promise.all([
          repo.hooks.claim(claimBy('one')),
          other.hooks.claim(claimBy('two')),
        ]);
        expect([...ids(mine), ...ids(theirs)]).toEqual(['shared']);
      });

      it('sees a hook that delivers as soon as another instance stores it', async () => {
        const other = scope.track(await connect(repo));
        expect(await repo.hooks.anyDeliverable()).toBe(false);
        await other.hooks.insert(hook('elsewhere'));
        expect(await repo.hooks.anyDeliverable()).toBe(true);
      });
    }
  });
}
