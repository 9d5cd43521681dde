/**
 * The worker's pass over writes while no hook delivers (`HookWorker`, `idleMs`): it makes no claim per
 * write then, and a hook made where this worker is not told of it (another instance or process on the same
 * database, whose service does not wake it) is still delivered.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startLoopbackServer } from '../../test/loopback-server.js';
import type { LoopbackServer } from '../../test/loopback-server.js';
import { Outbound, OutboundAllowList } from '../outbound/index.js';
import type { ConfigRepository } from '../storage/config-repository.js';
import type { HookStore } from '../storage/hook-store.js';
import { createMemoryConfigRepository } from '../storage/memory/memory-config-repository.js';
import { createSqliteConfigRepository } from '../storage/sqlite/sqlite-config-repository.js';
import { ManualClock, realTick } from '../test-clock.js';
import { repositoryHookLog } from './hook-log.js';
import { HookService } from './hook-service.js';
import { HookWorker } from './hook-worker.js';

const CONFIG = JSON.stringify({ allLinks: {} });
const dir = mkdtempSync(join(tmpdir(), 'linkconfig-hook-idle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

/** Two instances on one database: the worker's, and another that makes the hook. */
const setups: Record<
  string,
  () => { mine: ConfigRepository; other: ConfigRepository }
> = {
  memory: () => {
    const repo = createMemoryConfigRepository();
    return { mine: repo, other: repo };
  },
  'sqlite, two connections to one file': () => {
    const path = join(dir, `hooks-${++files}.db`);
    return {
      mine: createSqliteConfigRepository({ path, pollMs: 20 }),
      other: createSqliteConfigRepository({ path, pollMs: 20 }),
    };
  },
};

for (const [label, setup] of Object.entries(setups)) {
  describe(`the delivery worker with no hook (${label})`, () => {
    let receiver: LoopbackServer;
    let received: number[];
    let mine: ConfigRepository;
    let other: ConfigRepository;
    let clock: ManualClock;
    let claims: number;
    let worker: HookWorker;

    beforeEach(async () => {
      received = [];
      receiver = await startLoopbackServer((request, response) => {
        received.push(Number(request.headers['linkconfig-event-id']));
        response.statusCode = 204;
        response.end();
      });
      ({ mine, other } = setup());
      clock = new ManualClock(Date.UTC(2026, 0, 1));
      claims = 0;
      const store: HookStore = {
        ...mine.hooks,
        claim: (claim) => {
          claims++;
          return mine.hooks.claim(claim);
        },
      };
      worker = new HookWorker({
        store,
        log: repositoryHookLog(mine),
        outbound: new Outbound({
          allow: new OutboundAllowList([`127.0.0.1:${receiver.port}`]),
          userAgent: 'linkconfig-test/1',
        }),
        clock,
      });
      worker.start();
    });

    afterEach(async () => {
      await worker.stop();
      await mine.close();
      if (other !== mine) await other.close();
      await receiver.close();
    });

    async function write(...names: string[]): Promise<number[]> {
      const ids: number[] = [];
      for (const name of names) {
        const result = await mine.put(name, CONFIG);
        if (!result.ok) throw new Error('refused');
        ids.push(result.version);
        await realTick();
      }
      return ids;
    }

    /** A hook made through `repo`'s own service, which wakes no worker here. */
    const makeHook = (repo: ConfigRepository) =>
      new HookService({
        store: repo.hooks,
        log: repositoryHookLog(repo),
        now: () => new Date(clock.now()),
      }).create({
        url: `${receiver.origin}/hook`,
        events: ['change'],
        configs: ['*'],
      });

    it('makes no claim per write, and delivers to a hook another instance made', async () => {
      await clock.runUntil(() => claims > 0);
      await write(...Array.from({ length: 30 }, (_, i) => `before-${i}`));
      // No time passed: the first round found no hook, and the writes since needed none.
      expect(claims).toBe(1);
      await makeHook(other);
      const ids = await write('after-1', 'after-2');
      await clock.runUntil(() => received.length === ids.length);
      expect(received).toEqual(ids);
      // The writes while the hook exists are each looked at.
      const [next] = await write('after-3');
      await clock.runUntil(() => received.length === ids.length + 1);
      expect(received).toEqual([...ids, next]);
    });

    it('a hook made through the worker’s own process is served from the next write on', async () => {
      await clock.runUntil(() => claims > 0);
      await write('before');
      await makeHook(mine);
      worker.wake();
      const ids = await write('after');
      const at = clock.now();
      await clock.runUntil(() => received.length === 1);
      expect(received).toEqual(ids);
      // Delivered without waiting for the poll: the wake ended the pass over writes.
      expect(clock.now()).toBe(at);
    });
  });
}
