import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type {
  ConfigRepository,
  HistoryLimits,
  PutResult,
  RemoveResult,
  Refused,
} from './config-repository.js';
import { etagOf } from './etag.js';

/** How a contract run gets a fresh, empty repository (and cleans up after it). */
export interface RepositoryHarness {
  create(options?: {
    history?: HistoryLimits;
  }): Promise<ConfigRepository> | ConfigRepository;
  /**
   * Opens another connection to the database `repo` uses, as a second process or instance would (also
   * after `repo` was closed: a restart). Adapters that cannot share a database leave it out.
   */
  connect?(
    repo: ConfigRepository,
  ): Promise<ConfigRepository> | ConfigRepository;
  destroy?(repo: ConfigRepository): Promise<void> | void;
}

const T1 = new Date('2026-01-02T03:04:05.678Z');
const T2 = new Date('2026-02-03T04:05:06.789Z');
/** A second after T1: within the default history age. */
const SOON = new Date(T1.getTime() + 1000);
const at = (date: Date) => ({ now: () => date });

function stored(result: PutResult | Refused): PutResult {
  if (!result.ok) throw new Error(`write refused (${result.currentEtag})`);
  return result;
}
function refused(result: PutResult | RemoveResult | Refused): Refused {
  if (result.ok) throw new Error('write was expected to be refused');
  return result;
}

/** The one behaviour suite every `ConfigRepository` adapter must pass. */
export function runConfigRepositoryContract(
  label: string,
  harness: RepositoryHarness,
): void {
  describe(`ConfigRepository contract: ${label}`, () => {
    let repo: ConfigRepository;
    const extra: ConfigRepository[] = [];
    /** A repository that is closed after the test, like `repo`. */
    const track = <T extends ConfigRepository>(other: T): T => {
      extra.push(other);
      return other;
    };
    beforeEach(async () => {
      repo = await harness.create();
    });
    afterEach(async () => {
      for (const other of extra.splice(0)) await other.close();
      await harness.destroy?.(repo);
      await repo.close();
    });

    it('starts empty', async () => {
      expect(await repo.list()).toEqual([]);
      expect(await repo.get('x')).toBeNull();
      expect(await repo.version('x')).toBeNull();
      expect(await repo.count()).toBe(0);
      expect(await repo.head()).toBe(0);
      expect(await repo.changesSince(0, 10)).toEqual({
        reset: false,
        head: 0,
        changes: [],
      });
    });

    it('stores the JSON text byte for byte', async () => {
      const json =
        '{"z":1,"allLinks":{"9":{"url":"u"},"a":{"url":"v"}},"é":"\\u0000"}';
      await repo.put('n', json, at(T1));
      const row = await repo.get('n');
      expect(row?.json).toBe(json);
      expect(row?.createdAt).toBe(T1.toISOString());
      expect(row?.updatedAt).toBe(T1.toISOString());
    });

    it('keeps createdAt on overwrite, moves updatedAt, the version and the ETag', async () => {
      const first = stored(await repo.put('n', '{"allLinks":{}}', at(T1)));
      expect(first.created).toBe(true);
      expect(first.etag).toBe(etagOf(first));
      const second = stored(
        await repo.put('n', '{"allLinks":{"a":{"url":""}}}', at(T2)),
      );
      expect(second.created).toBe(false);
      expect(second.createdAt).toBe(T1.toISOString());
      expect(second.updatedAt).toBe(T2.toISOString());
      expect(second.version).toBeGreaterThan(first.version);
      expect(second.etag).not.toBe(first.etag);
      const row = await repo.get('n');
      expect(row?.json).toBe('{"allLinks":{"a":{"url":""}}}');
      expect(row?.version).toBe(second.version);
      expect(etagOf(row!)).toBe(second.etag);
      expect(await repo.version('n')).toBe(second.version);
    });

    it('gives every write a new revision, deletes included, across names', async () => {
      const a = stored(await repo.put('a', '{}', at(T1)));
      const b = stored(await repo.put('b', '{}', at(T1)));
      expect(await repo.head()).toBe(b.version);
      await repo.remove('a');
      const afterDelete = await repo.head();
      expect(afterDelete).toBeGreaterThan(b.version);
      const a2 = stored(await repo.put('a', '{}', at(T1)));
      expect(a2.version).toBeGreaterThan(afterDelete);
      expect(new Set([a.version, b.version, a2.version]).size).toBe(3);
    });

    it('lists names sorted by code point, with any characters', async () => {
      const names = ['b', 'a b', 'A', '%2F', 'a/b', 'é', '😀', 'Z', '10', '9'];
      for (const name of names) await repo.put(name, '{}', at(T1));
      const listed = await repo.list();
      const sorted = [...names].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
      expect(listed).toEqual(sorted);
      const versions = await repo.listVersions();
      expect(versions.map((v) => v.name)).toEqual(sorted);
      for (const { name, version } of versions) {
        expect(await repo.version(name)).toBe(version);
      }
      expect(await repo.count()).toBe(names.length);
    });

    it('removes, and treats a missing name as done without recording a change', async () => {
      await repo.put('n', '{}', at(T1));
      expect(await repo.remove('n')).toEqual({ ok: true, removed: true });
      const head = await repo.head();
      expect(await repo.remove('n')).toEqual({ ok: true, removed: false });
      expect(await repo.head()).toBe(head);
      expect(await repo.get('n')).toBeNull();
      expect(await repo.list()).toEqual([]);
    });

    it('resets createdAt when a removed name is created again', async () => {
      await repo.put('n', '{}', at(T1));
      await repo.remove('n');
      await repo.put('n', '{}', at(T2));
      expect((await repo.get('n'))?.createdAt).toBe(T2.toISOString());
    });

    it('keeps names apart that differ only in case or normalization', async () => {
      await repo.put('Cafe\u0301', '{"v":1}', at(T1));
      await repo.put('Caf\u00e9', '{"v":2}', at(T1));
      await repo.put('cafe\u0301', '{"v":3}', at(T1));
      expect(await repo.count()).toBe(3);
      expect((await repo.get('Caf\u00e9'))?.json).toBe('{"v":2}');
    });

    it('rejects calls after close', async () => {
      const other = await harness.create();
      await other.close();
      await expect(other.list()).rejects.toThrow(/closed/);
    });

    describe('preconditions', () => {
      it('puts over the version named by If-Match, and refuses a stale one', async () => {
        const first = stored(await repo.put('n', '{"v":1}', at(T1)));
        const second = stored(
          await repo.put('n', '{"v":2}', { ...at(T2), ifMatch: [first.etag] }),
        );
        const head = await repo.head();
        const stale = refused(
          await repo.put('n', '{"v":3}', { ...at(T2), ifMatch: [first.etag] }),
        );
        expect(stale.currentEtag).toBe(second.etag);
        expect((await repo.get('n'))?.json).toBe('{"v":2}');
        expect(await repo.head()).toBe(head);
      });

      it('accepts a list holding the current tag, and never a weak tag', async () => {
        const first = stored(await repo.put('n', '{}', at(T1)));
        stored(
          await repo.put('n', '{"v":2}', {
            ifMatch: ['"other"', first.etag],
          }),
        );
        const current = etagOf((await repo.get('n'))!);
        expect(
          refused(await repo.put('n', '{"v":3}', { ifMatch: [`W/${current}`] }))
            .currentEtag,
        ).toBe(current);
      });

      it('refuses If-Match on a missing name, * included, with no current tag', async () => {
        expect(await repo.put('n', '{}', { ifMatch: ['"1-x"'] })).toEqual({
          ok: false,
          currentEtag: null,
        });
        expect(await repo.put('n', '{}', { ifMatch: '*' })).toEqual({
          ok: false,
          currentEtag: null,
        });
        expect(await repo.get('n')).toBeNull();
        expect(await repo.head()).toBe(0);
      });

      it('puts over any existing version with If-Match: *', async () => {
        await repo.put('n', '{"v":1}', at(T1));
        stored(await repo.put('n', '{"v":2}', { ifMatch: '*' }));
        expect((await repo.get('n'))?.json).toBe('{"v":2}');
      });

      it('creates only with If-None-Match: *', async () => {
        const created = stored(
          await repo.put('n', '{"v":1}', { ifNoneMatch: '*' }),
        );
        expect(created.created).toBe(true);
        expect(
          refused(await repo.put('n', '{"v":2}', { ifNoneMatch: '*' }))
            .currentEtag,
        ).toBe(created.etag);
        expect((await repo.get('n'))?.json).toBe('{"v":1}');
      });

      it('compares If-None-Match tags weakly', async () => {
        const first = stored(await repo.put('n', '{}', at(T1)));
        refused(
          await repo.put('n', '{}', { ifNoneMatch: [`W/${first.etag}`] }),
        );
        stored(await repo.put('n', '{}', { ifNoneMatch: ['"other"'] }));
      });

      it('deletes the version named by If-Match, and refuses a stale one', async () => {
        const first = stored(await repo.put('n', '{"v":1}', at(T1)));
        const second = stored(await repo.put('n', '{"v":2}', at(T2)));
        expect(
          refused(await repo.remove('n', { ifMatch: [first.etag] }))
            .currentEtag,
        ).toBe(second.etag);
        expect((await repo.get('n'))?.json).toBe('{"v":2}');
        expect(await repo.remove('n', { ifMatch: [second.etag] })).toEqual({
          ok: true,
          removed: true,
        });
        expect(await repo.get('n')).toBeNull();
      });

      it('refuses a conditional delete of a missing name', async () => {
        expect(await repo.remove('n', { ifMatch: '*' })).toEqual({
          ok: false,
          currentEtag: null,
        });
        expect(await repo.remove('n', { ifMatch: ['"1-x"'] })).toEqual({
          ok: false,
          currentEtag: null,
        });
      });

      it('lets exactly one of two writers with the same If-Match through', async () => {
        const first = stored(await repo.put('n', '{"v":0}', at(T1)));
        const other = harness.connect
          ? track(await harness.connect(repo))
          : repo;
        const results = await Promise.all([
          repo.put('n', '{"v":1}', { ifMatch: [first.etag] }),
          other.put('n', '{"v":2}', { ifMatch: [first.etag] }),
          other.remove('n', { ifMatch: [first.etag] }),
        ]);
        expect(results.filter((r) => r.ok)).toHaveLength(1);
      });
    });

    describe('timestamps', () => {
      it('never moves updatedAt below the stored timestamps when the clock goes back', async () => {
        await repo.put('n', '{}', at(T2));
        const back = stored(await repo.put('n', '{}', at(T1)));
        expect(back.createdAt).toBe(T2.toISOString());
        expect(back.updatedAt).toBe(T2.toISOString());
        await repo.remove('n', at(T1));
        const page = await repo.changesSince(0, 10);
        expect(page.reset).toBe(false);
        if (!page.reset) {
          expect(page.changes.map((c) => c.updatedAt)).toEqual([
            T2.toISOString(),
            T2.toISOString(),
            T2.toISOString(),
          ]);
        }
      });

      it('reads the clock once per write, inside the write', async () => {
        const clock = vi.fn(() => T1);
        await repo.put('n', '{}', { now: clock });
        expect(clock).toHaveBeenCalledTimes(1);
        await repo.put('n', '{}', { now: clock, ifMatch: ['"stale"'] });
        expect(clock).toHaveBeenCalledTimes(1);
      });
    });

    describe('changes', () => {
      it('lists puts and deletes in commit order, with ETags and times, in pages', async () => {
        const a = stored(await repo.put('a', '{}', at(T1)));
        const b = stored(await repo.put('b', '{}', at(T1)));
        await repo.remove('a', at(SOON));
        const head = await repo.head();
        const page = await repo.changesSince(0, 10);
        expect(page).toEqual({
          reset: false,
          head,
          changes: [
            {
              id: a.version,
              name: 'a',
              op: 'put',
              etag: a.etag,
              updatedAt: T1.toISOString(),
            },
            {
              id: b.version,
              name: 'b',
              op: 'put',
              etag: b.etag,
              updatedAt: T1.toISOString(),
            },
            {
              id: head,
              name: 'a',
              op: 'delete',
              etag: null,
              updatedAt: SOON.toISOString(),
            },
          ],
        });
        const first = await repo.changesSince(0, 2);
        const rest = await repo.changesSince(b.version, 2);
        expect(first.reset || first.changes.map((c) => c.id)).toEqual([
          a.version,
          b.version,
        ]);
        expect(rest.reset || rest.changes.map((c) => c.id)).toEqual([head]);
      });

      it('asks for a reset when the id was never given out', async () => {
        await repo.put('a', '{}', at(T1));
        expect(await repo.changesSince(99, 10)).toEqual({
          reset: true,
          head: 1,
        });
      });

      it('keeps at most the configured number of changes', async () => {
        const small = track(await harness.create({ history: { maxCount: 3 } }));
        for (let i = 0; i < 6; i++) await small.put(`n${i}`, '{}', at(T1));
        const head = await small.head();
        const kept = await small.changesSince(head - 3, 10);
        expect(kept.reset || kept.changes.map((c) => c.name)).toEqual([
          'n3',
          'n4',
          'n5',
        ]);
        expect(await small.changesSince(head - 4, 10)).toEqual({
          reset: true,
          head,
        });
        expect((await small.changesSince(0, 10)).reset).toBe(true);
      });

      it('drops changes older than the configured age', async () => {
        const young = track(
          await harness.create({ history: { maxAgeMs: 60_000 } }),
        );
        const t = T1.getTime();
        await young.put('a', '{}', at(new Date(t)));
        await young.put('b', '{}', at(new Date(t + 30_000)));
        await young.put('c', '{}', at(new Date(t + 100_000)));
        const head = await young.head();
        expect((await young.changesSince(head - 2, 10)).reset).toBe(true);
        const kept = await young.changesSince(head - 1, 10);
        expect(kept.reset || kept.changes.map((c) => c.name)).toEqual(['c']);
      });

      it('tells watchers about its own writes, until they unsubscribe', async () => {
        const listener = vi.fn();
        const stop = repo.watch(listener);
        await repo.put('n', '{}', at(T1));
        await vi.waitFor(() => expect(listener).toHaveBeenCalled());
        stop();
        listener.mockClear();
        await repo.put('n', '{}', at(T1));
        await new Promise((resolve) => setTimeout(resolve, 50));
        expect(listener).not.toHaveBeenCalled();
      });

      it('moves the change token on every write', async () => {
        const before = await repo.changeToken();
        expect(await repo.changeToken()).toBe(before);
        await repo.put('n', '{}', at(T1));
        const afterPut = await repo.changeToken();
        expect(afterPut).not.toBe(before);
        await repo.remove('n');
        expect(await repo.changeToken()).not.toBe(afterPut);
      });
    });

    if (harness.connect !== undefined) {
      const connect = harness.connect;
      describe('shared by several connections', () => {
        it('sees another connection’s writes: token, watchers and changes', async () => {
          const other = track(await connect(repo));
          const token = await repo.changeToken();
          const listener = vi.fn();
          const stop = repo.watch(listener);
          const put = stored(await other.put('n', '{"v":1}', at(T1)));
          expect(await repo.changeToken()).not.toBe(token);
          await vi.waitFor(() => expect(listener).toHaveBeenCalled(), {
            timeout: 2000,
          });
          stop();
          const page = await repo.changesSince(0, 10);
          expect(page.reset || page.changes.map((c) => c.etag)).toEqual([
            put.etag,
          ]);
        });

        it('never reuses a revision after a restart', async () => {
          const first = stored(await repo.put('a', '{}', at(T1)));
          await repo.remove('a', at(T1));
          const head = await repo.head();
          await repo.close();
          repo = await connect(repo);
          expect(await repo.head()).toBe(head);
          const next = stored(await repo.put('b', '{}', at(T1)));
          expect(next.version).toBeGreaterThan(head);
          const page = await repo.changesSince(0, 10);
          expect(page.reset || page.changes.map((c) => c.id)).toEqual([
            first.version,
            head,
            next.version,
          ]);
        });
      });
    }
  });
}
