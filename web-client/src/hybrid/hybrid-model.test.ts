import fc from 'fast-check';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { createIndexedDBStore } from '../indexeddb/indexeddb-store.js';
import { createScriptedRemote, remoteFailure } from '../testing/test-remote.js';
import { createHybridStore } from './hybrid-store.js';
import type { HybridStore } from './hybrid-store.js';

const NAMES = ['a', 'b', 'c'] as const;
type Fault = 'network' | '500' | '429' | 'timeout' | 'none';

const command = fc.oneof(
  fc.record({
    kind: fc.constant('save' as const),
    name: fc.constantFrom(...NAMES),
    value: fc.nat(99),
  }),
  fc.record({
    kind: fc.constant('remove' as const),
    name: fc.constantFrom(...NAMES),
  }),
  fc.record({
    kind: fc.constant('fault' as const),
    fault: fc.constantFrom<Fault>('network', '500', '429', 'timeout', 'none'),
  }),
  fc.record({ kind: fc.constant('restart' as const) }),
  fc.record({ kind: fc.constant('sync' as const) }),
);

describe('hybrid store model (H7)', () => {
  it('converges: after faults stop and the queue drains, remote equals local and the outbox is empty', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(command, { maxLength: 25 }),
        async (commands) => {
          const factory = new IDBFactory();
          const remote = createScriptedRemote();
          let fault: Fault = 'none';
          remote.setScript((call) => {
            if (call.op !== 'save' && call.op !== 'remove') return undefined;
            if (fault === 'network') return remoteFailure(call, 0);
            if (fault === 'timeout')
              return remoteFailure(call, 0, { kind: 'timeout' });
            if (fault === '500') return remoteFailure(call, 500);
            if (fault === '429')
              return remoteFailure(call, 429, { retryAfterMs: 1 });
            return undefined;
          });
          let local = await createIndexedDBStore({ indexedDB: factory });
          const open = (): HybridStore =>
            createHybridStore({
              local,
              remote: remote.store,
              backoff: { baseMs: 1, capMs: 2 },
            });
          let store = open();
          const expected = new Map<string, number>();
          for (const c of commands) {
            if (c.kind === 'save') {
              await store.save(c.name, {
                allLinks: { x: { url: `https://x/${c.value}` } },
              });
              expected.set(c.name, c.value);
            } else if (c.kind === 'remove') {
              await store.remove(c.name);
              expected.delete(c.name);
            } else if (c.kind === 'fault') {
              fault = c.fault;
            } else if (c.kind === 'restart') {
              store.close();
              local.close();
              local = await createIndexedDBStore({ indexedDB: factory });
              store = open();
            } else {
              await store.sync();
            }
          }
          fault = 'none';
          await store.flush({ timeoutMs: 5000 });
          for (const name of NAMES) {
            const want = expected.has(name)
              ? { allLinks: { x: { url: `https://x/${expected.get(name)}` } } }
              : null;
            expect(await local.load(name)).toEqual(want);
            expect(remote.config(name)).toEqual(want);
          }
          expect(await local.outbox.all()).toEqual([]);
          store.close();
          local.close();
        },
      ),
      { numRuns: 40 },
    );
  });
});
