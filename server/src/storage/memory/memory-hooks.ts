/** Hooks kept in memory, for tests and the memory repository (`hook-store.ts`). */
import { byCreationThenId } from '../creation-order.js';
import type { HookStore, StoredDelivery, StoredHook } from '../hook-store.js';

interface Lease {
  readonly owner: string;
  readonly until: number;
}

/** A {@link HookStore} in memory; `open()` throws once the repository is closed. */
export function createMemoryHooks(open: () => void): HookStore {
  const hooks = new Map<string, StoredHook>();
  const leases = new Map<string, Lease>();
  const logs = new Map<string, StoredDelivery[]>();
  return {
    insert: async (hook) => {
      open();
      if (hooks.has(hook.id)) throw new Error(`hook ${hook.id} exists`);
      hooks.set(hook.id, hook);
    },
    list: async () => {
      open();
      return [...hooks.values()].sort(byCreationThenId);
    },
    anyDeliverable: async () => {
      open();
      for (const hook of hooks.values()) if (hook.secret !== null) return true;
      return false;
    },
    get: async (id) => {
      open();
      return hooks.get(id) ?? null;
    },
    remove: async (id) => {
      open();
      leases.delete(id);
      logs.delete(id);
      return hooks.delete(id);
    },
    claim: async (claim) => {
      open();
      const due = [...hooks.values()]
        .filter((hook) => {
          const lease = leases.get(hook.id);
          return (
            hook.secret !== null &&
            hook.cursor < claim.head &&
            hook.nextAt <= claim.now &&
            (lease === undefined ||
              lease.until <= claim.now ||
              lease.owner === claim.owner)
          );
        })
        .sort((a, b) => a.nextAt - b.nextAt || (a.id < b.id ? -1 : 1))
        .slice(0, claim.limit);
      for (const hook of due)
        leases.set(hook.id, { owner: claim.owner, until: claim.until });
      return due;
    },
    advance: async (id, progress, { owner, release }) => {
      open();
      const hook = hooks.get(id);
      if (hook === undefined || leases.get(id)?.owner !== owner) return false;
      hooks.set(id, { ...hook, ...progress });
      if (release) leases.delete(id);
      return true;
    },
    record: async (deliveries, keep) => {
      open();
      for (const delivery of deliveries) {
        if (!hooks.has(delivery.hookId)) continue;
        const log = logs.get(delivery.hookId) ?? [];
        log.push(delivery);
        if (log.length > keep) log.splice(0, log.length - keep);
        logs.set(delivery.hookId, log);
      }
    },
    deliveries: async (id, limit) => {
      open();
      return (logs.get(id) ?? [])
        .slice(-limit)
        .reverse()
        .map(({ hookId: _hook, ...delivery }) => delivery);
    },
    putAll: async (list) => {
      open();
      for (const hook of list) {
        hooks.set(hook.id, hook);
        leases.delete(hook.id);
      }
    },
  };
}
