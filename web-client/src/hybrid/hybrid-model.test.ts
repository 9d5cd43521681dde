import fc from 'fast-check';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it, vi } from 'vitest';
import type { LinkConfig } from '@linkconfig/shared';
import type { ConfigStore } from '../config-store.js';
import { createIndexedDBStore } from '../indexeddb/indexeddb-store.js';
import { createMemoryStore } from '../memory/memory-store.js';
import { RemoteStoreError } from '../remote/remote-store-error.js';
import { createScriptedRemote, remoteFailure } from '../testing/test-remote.js';
import type { ConflictChoice } from './conflicts.js';
import { FlushError } from './flush-error.js';
import { createHybridStore } from './hybrid-store.js';
import type { HybridStore } from './hybrid-store.js';

const NAMES = ['a', 'b', 'c'] as const;
type Fault = 'network' | '500' | '429' | 'timeout' | 'none';

const value = (n: number): LinkConfig => ({
  allLinks: { x: { url: `https://x/${n}` } },
});

const faults = fc.constantFrom<Fault>(
  'network',
  '500',
  '429',
  'timeout',
  'none',
);
const name = fc.constantFrom(...NAMES);
const ownCommands = [
  fc.record({ kind: fc.constant('save' as const), name, value: fc.nat(99) }),
  fc.record({ kind: fc.constant('remove' as const), name }),
  fc.record({ kind: fc.constant('fault' as const), fault: faults }),
  fc.record({ kind: fc.constant('restart' as const) }),
  fc.record({ kind: fc.constant('sync' as const) }),
];
/** What another client does to the same server, and reads that make this store see it. */
const otherCommands = [
  fc.record({
    kind: fc.constant('other-save' as const),
    name,
    value: fc.integer({ min: 100, max: 199 }),
  }),
  fc.record({ kind: fc.constant('other-remove' as const), name }),
  fc.record({ kind: fc.constant('load' as const), name }),
];

/** A local store that survives a "restart" of the hybrid store (a tab reload), IndexedDB or memory. */
interface LocalKind {
  label: string;
  open(): Promise<{
    local: ConfigStore;
    factory: IDBFactory;
    reopen(): Promise<ConfigStore>;
    close(): void;
  }>;
}

const LOCALS: LocalKind[] = [
  {
    label: 'IndexedDB',
    async open() {
      const factory = new IDBFactory();
      let current = await createIndexedDBStore({ indexedDB: factory });
      return {
        local: current,
        factory,
        async reopen() {
          current.close();
          current = await createIndexedDBStore({ indexedDB: factory });
          return current;
        },
        close: () => current.close(),
      };
    },
  },
  {
    label: 'memory',
    async open() {
      const local = createMemoryStore();
      return {
        local,
        factory: new IDBFactory(),
        reopen: async () => local,
        close: () => undefined,
      };
    },
  },
];

describe.each(LOCALS)('hybrid store model over $label', (kind) => {
  it('converges: after faults stop and the queue drains, remote equals local and the outbox is empty (H7)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(...ownCommands), { maxLength: 25 }),
        async (commands) => {
          const world = await kind.open();
          const remote = createScriptedRemote();
          let fault: Fault = 'none';
          remote.setScript((call) => inject(call, fault));
          let local = world.local;
          const open = (): HybridStore =>
            createHybridStore({
              local,
              remote: remote.store,
              indexedDB: world.factory,
              backoff: { baseMs: 1, capMs: 2 },
            });
          let store = open();
          const expected = new Map<string, number>();
          for (const c of commands) {
            if (c.kind === 'save') {
              await store.save(c.name, value(c.value));
              expected.set(c.name, c.value);
            } else if (c.kind === 'remove') {
              await store.remove(c.name);
              expected.delete(c.name);
            } else if (c.kind === 'fault') fault = c.fault;
            else if (c.kind === 'restart') {
              store.close();
              local = await world.reopen();
              store = open();
            } else await store.sync();
          }
          fault = 'none';
          await store.flush({ timeoutMs: 5000 });
          for (const n of NAMES) {
            const want = expected.has(n) ? value(expected.get(n) ?? 0) : null;
            expect(await local.load(n)).toEqual(want);
            expect(remote.config(n)).toEqual(want);
          }
          expect(store.getStatus()).toMatchObject({ pending: 0 });
          store.close();
          world.close();
        },
      ),
      { numRuns: 25 },
    );
  });

  it('with a second writer, loses no acknowledged update without telling someone', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(...ownCommands, ...otherCommands), {
          maxLength: 30,
        }),
        fc.constantFrom<'callback' | 'later'>('callback', 'later'),
        fc.infiniteStream(
          fc.constantFrom('keep-local', 'take-remote', 'merge'),
        ),
        async (commands, mode, choices) => {
          const world = await kind.open();
          const remote = createScriptedRemote();
          let fault: Fault = 'none';
          remote.setScript((call) => inject(call, fault));
          let local = world.local;
          /** Names someone was told about: a conflict offered, listed, or reported. */
          const told = new Set<string>();
          const choose = (): ConflictChoice => {
            const next = choices.next().value as string;
            return next === 'merge' ? value(1000) : (next as ConflictChoice);
          };
          const open = (): HybridStore =>
            createHybridStore({
              local,
              remote: remote.store,
              indexedDB: world.factory,
              backoff: { baseMs: 1, capMs: 2 },
              onConflict:
                mode === 'callback'
                  ? (n) => {
                      told.add(n);
                      return choose();
                    }
                  : undefined,
              onRemoteError: (_op, n, error) => {
                if (
                  error instanceof RemoteStoreError &&
                  error.kind === 'conflict'
                )
                  told.add(n);
              },
            });
          let store = open();
          /** This store's last local write of each name (a config, or null for a remove). */
          const mine = new Map<string, LinkConfig | null>();
          /** How many writes the server had applied when that last local write was made. */
          const mineAt = new Map<string, number>();
          for (const c of commands) {
            if (c.kind === 'save') {
              await store.save(c.name, value(c.value));
              mine.set(c.name, value(c.value));
              mineAt.set(c.name, remote.applied.length);
            } else if (c.kind === 'remove') {
              await store.remove(c.name);
              mine.set(c.name, null);
              mineAt.set(c.name, remote.applied.length);
            } else if (c.kind === 'other-save')
              remote.writeDirect(c.name, value(c.value));
            else if (c.kind === 'other-remove') remote.removeDirect(c.name);
            else if (c.kind === 'load') await store.load(c.name);
            else if (c.kind === 'fault') fault = c.fault;
            else if (c.kind === 'restart') {
              store.close();
              local = await world.reopen();
              store = open();
            } else await store.sync();
          }
          fault = 'none';
          for (let round = 0; ; round++) {
            try {
              await store.flush({ timeoutMs: 5000 });
              break;
            } catch (error) {
              expect(error).toBeInstanceOf(FlushError);
              expect(round).toBeLessThan(10);
              for (const conflict of await store.conflicts()) {
                told.add(conflict.name);
                await store.resolveConflict(conflict.name, choose());
              }
            }
          }
          // The store sent nothing without a precondition, so it never overwrote a version it had not
          // seen (or been told about in a conflict): the other client's updates are safe by construction.
          const writes = remote.calls.filter(
            (call) => call.op === 'save' || call.op === 'remove',
          );
          expect(writes.every((call) => call.condition !== undefined)).toBe(
            true,
          );
          for (const n of NAMES) {
            // Unless someone was told, this store's last write reached the server (a remove may find
            // nothing to remove), and only the other client's writes came after it there.
            if (mine.has(n) && !told.has(n)) {
              const after = remote.applied
                .slice(mineAt.get(n) ?? 0)
                .filter((w) => w.name === n);
              let own = -1;
              after.forEach((w, i) => {
                if (w.by === 'store') own = i;
              });
              if (own < 0) expect(mine.get(n)).toBeNull();
              else expect(after[own]?.config).toEqual(mine.get(n));
              expect(remote.config(n)).toEqual(after.at(-1)?.config ?? null);
            }
            // Reading again brings this store to the server's state.
            await vi.waitFor(
              async () => {
                await store.load(n);
                expect(await local.load(n)).toEqual(remote.config(n));
              },
              { timeout: 2000 },
            );
          }
          expect(await store.conflicts()).toEqual([]);
          store.close();
          world.close();
        },
      ),
      { numRuns: 60 },
    );
  });
});

/** The failure the scripted server answers a write with under `fault`. */
function inject(
  call: Parameters<typeof remoteFailure>[0],
  fault: Fault,
): Error | undefined {
  if (call.op !== 'save' && call.op !== 'remove') return undefined;
  if (fault === 'network') return remoteFailure(call, 0);
  if (fault === 'timeout') return remoteFailure(call, 0, { kind: 'timeout' });
  if (fault === '500') return remoteFailure(call, 500);
  if (fault === '429') return remoteFailure(call, 429, { retryAfterMs: 1 });
  return undefined;
}
