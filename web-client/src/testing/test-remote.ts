/**
 * Test doubles for hybrid-store tests: an in-memory remote whose answers can be scripted per call, and
 * an in-memory outbox.
 */
import type { ConfigEntry, LinkConfig } from '@linkconfig/shared';
import { sortNames } from '../config-store.js';
import type { ConfigStore } from '../config-store.js';
import type { DeadLetter, Outbox, OutboxEntry } from '../indexeddb/outbox.js';
import { RemoteStoreError } from '../remote/remote-store-error.js';
import type { RemoteFailureKind } from '../remote/remote-store-error.js';

/** One call the scripted remote received. */
export interface RemoteCall {
  op: 'save' | 'remove' | 'load' | 'list';
  name: string;
  config?: LinkConfig;
}

/** Decides the fate of a call: `undefined` lets it through, an error fails it, a promise delays it. */
export type Script = (call: RemoteCall) => Error | Promise<void> | undefined;

/** A failure like the remote store reports it. */
export function remoteFailure(
  call: Pick<RemoteCall, 'op' | 'name'>,
  status: number,
  extra: { kind?: RemoteFailureKind; retryAfterMs?: number } = {},
): RemoteStoreError {
  return new RemoteStoreError({
    op: call.op,
    configName: call.name,
    kind: extra.kind ?? (status === 0 ? 'network' : 'http'),
    status,
    message: `scripted ${status || extra.kind || 'network'} failure`,
    retryAfterMs: extra.retryAfterMs,
  });
}

/** An in-memory "server" that records every call and follows a script. */
export function createScriptedRemote(
  initial: Record<string, ConfigEntry> = {},
) {
  const data = new Map(Object.entries(initial));
  const calls: RemoteCall[] = [];
  let script: Script = () => undefined;
  let clock = Date.parse('2030-01-01T00:00:00.000Z');

  const run = async (call: RemoteCall) => {
    calls.push(call);
    const fate = script(call);
    if (fate instanceof Error) throw fate;
    if (fate) await fate;
  };

  const store: ConfigStore = {
    async save(name, config) {
      await run({ op: 'save', name, config });
      const previous = data.get(name);
      const now = new Date((clock += 1)).toISOString();
      data.set(name, {
        config,
        meta: { createdAt: previous?.meta.createdAt ?? now, updatedAt: now },
      });
    },
    async loadEntry(name) {
      await run({ op: 'load', name });
      return data.get(name) ?? null;
    },
    async load(name) {
      return (await store.loadEntry(name))?.config ?? null;
    },
    async list() {
      await run({ op: 'list', name: '' });
      return sortNames(data.keys());
    },
    async remove(name) {
      await run({ op: 'remove', name });
      data.delete(name);
    },
  };
  return {
    store,
    data,
    calls,
    setScript(next: Script) {
      script = next;
    },
    /** Writes as another client would, straight into the server's data. */
    writeDirect(name: string, config: LinkConfig) {
      const now = new Date((clock += 1000)).toISOString();
      data.set(name, {
        config,
        meta: {
          createdAt: data.get(name)?.meta.createdAt ?? now,
          updatedAt: now,
        },
      });
    },
  };
}

/** An outbox in memory, for queue tests that do not need IndexedDB. */
export function createMemoryOutbox(): Outbox & {
  entries: Map<string, OutboxEntry>;
} {
  const entries = new Map<string, OutboxEntry>();
  const dead = new Map<string, DeadLetter>();
  return {
    entries,
    put: async (entry) => void entries.set(entry.name, entry),
    get: async (name) => entries.get(name),
    all: async () =>
      [...entries.values()].sort((a, b) => (a.queuedAt < b.queuedAt ? -1 : 1)),
    async ackIfCurrent(name, token) {
      if (entries.get(name)?.token !== token) return false;
      entries.delete(name);
      return true;
    },
    async deadLetter(letter) {
      if (entries.get(letter.name)?.token !== letter.token) return false;
      entries.delete(letter.name);
      dead.set(letter.name, letter);
      return true;
    },
    deadLetters: async () => [...dead.values()],
    discardDeadLetter: async (name) => void dead.delete(name),
    close: () => undefined,
  };
}
