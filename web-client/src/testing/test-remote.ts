/**
 * A test double of the server for hybrid-store tests: an in-memory remote store that speaks versions
 * (ETags, preconditions, 412) and a change feed like the real one, records every call, and follows a
 * script that can fail or delay any call.
 */
import { applyMergePatch } from '@linkconfig/shared';
import type { ConfigEntry, LinkConfig, MergePatch } from '@linkconfig/shared';
import { sortNames } from '../config-store.js';
import type { ConfigStore } from '../config-store.js';
import type { ChangeEvent } from '../remote/change-event.js';
import type { ChangeFeedOptions, FeedState } from '../remote/change-feed.js';
import { RemoteStoreError } from '../remote/remote-store-error.js';
import type { RemoteFailureKind } from '../remote/remote-store-error.js';
import type {
  RemoteConfigStore,
  VersionedLoad,
  WriteCondition,
} from '../remote/remote-store.js';

/** One call the scripted remote received. */
export interface RemoteCall {
  op: 'save' | 'remove' | 'load' | 'list' | 'watch';
  name: string;
  config?: LinkConfig;
  /** The merge patch of a `PATCH` (then `config` is what it made of the stored config). */
  patch?: MergePatch;
  condition?: WriteCondition;
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

/** A write the fake server applied: by the store under test, or by another client. */
export interface AppliedWrite {
  by: 'store' | 'other';
  name: string;
  config: LinkConfig | null;
}

interface Stored {
  entry: ConfigEntry;
  etag: string;
}

/** Creates the fake server; `versioned: false` makes it a plain ConfigStore (no ETags, no feed). */
export function createScriptedRemote(
  initial: Record<string, ConfigEntry> = {},
  options: { versioned?: boolean } = {},
) {
  let version = 0;
  const tag = () => `"v${++version}"`;
  const data = new Map<string, Stored>(
    Object.entries(initial).map(([name, entry]) => [
      name,
      { entry, etag: tag() },
    ]),
  );
  const calls: RemoteCall[] = [];
  const feeds = new Set<ChangeFeedOptions>();
  /** Every write the server applied, in order, and who made it. */
  const applied: AppliedWrite[] = [];
  const events: ChangeEvent[] = [];
  let script: Script = () => undefined;
  let clock = Date.parse('2030-01-01T00:00:00.000Z');

  const run = async (call: RemoteCall) => {
    calls.push(call);
    const fate = script(call);
    if (fate instanceof Error) throw fate;
    if (fate) await fate;
  };

  const emit = (name: string) => {
    const stored = data.get(name);
    const event: ChangeEvent = {
      id: String(events.length + 1),
      name,
      op: stored ? 'put' : 'delete',
      etag: stored?.etag ?? null,
      updatedAt: stored?.entry.meta.updatedAt ?? new Date(clock).toISOString(),
    };
    events.push(event);
    for (const feed of feeds) feed.onChange(event);
  };

  const put = (name: string, config: LinkConfig, by: AppliedWrite['by']) => {
    const step = by === 'store' ? 1 : 1000;
    applied.push({ by, name, config });
    const previous = data.get(name);
    const now = new Date((clock += step)).toISOString();
    const etag = tag();
    data.set(name, {
      entry: {
        config,
        meta: {
          createdAt: previous?.entry.meta.createdAt ?? now,
          updatedAt: now,
        },
      },
      etag,
    });
    emit(name);
    return etag;
  };

  /** Checks a precondition as the server does; throws the 412 it would answer. */
  const check = (call: RemoteCall) => {
    const current = data.get(call.name)?.etag ?? null;
    const { ifMatch, ifNoneMatch } = call.condition ?? {};
    const fails =
      (ifMatch !== undefined &&
        (current === null || (ifMatch !== '*' && ifMatch !== current))) ||
      (ifNoneMatch === '*' && current !== null);
    if (fails) {
      throw new RemoteStoreError({
        op: call.op,
        configName: call.name,
        kind: 'conflict',
        status: 412,
        message: 'scripted 412: the stored version differs',
        etag: current,
      });
    }
  };

  const versioned: RemoteConfigStore = {
    async saveVersioned(name, config, condition) {
      const call = { op: 'save' as const, name, config, condition };
      await run(call);
      check(call);
      return { etag: put(name, config, 'store') };
    },
    async patch(name, mergePatch, condition) {
      const stored = data.get(name);
      const config = applyMergePatch(
        stored?.entry.config,
        mergePatch,
      ) as LinkConfig;
      const call = {
        op: 'save' as const,
        name,
        config,
        patch: mergePatch,
        condition,
      };
      await run(call);
      check(call);
      if (data.get(name) === undefined) {
        throw remoteFailure(call, 404);
      }
      // Applied to what is stored when the request arrives (after any delay).
      const now = applyMergePatch(data.get(name)?.entry.config, mergePatch);
      return { etag: put(name, now as LinkConfig, 'store') };
    },
    async removeVersioned(name, condition) {
      const call = { op: 'remove' as const, name, condition };
      await run(call);
      check(call);
      if (data.delete(name)) {
        applied.push({ by: 'store', name, config: null });
        emit(name);
      }
    },
    async loadVersioned(name, loadOptions = {}): Promise<VersionedLoad> {
      // The answer is what the server holds when the request arrives; a delay only slows its way back.
      const stored = data.get(name);
      await run({ op: 'load', name });
      if (!stored) return { status: 'missing' };
      if (loadOptions.ifNoneMatch === stored.etag)
        return { status: 'not-modified', etag: stored.etag };
      return { status: 'found', entry: stored.entry, etag: stored.etag };
    },
    save: async (name, config) =>
      void (await versioned.saveVersioned(name, config)),
    async loadEntry(name) {
      const answer = await versioned.loadVersioned(name);
      return answer.status === 'found' ? answer.entry : null;
    },
    load: async (name) => (await versioned.loadEntry(name))?.config ?? null,
    async list() {
      const names = sortNames(data.keys());
      await run({ op: 'list', name: '' });
      return names;
    },
    remove: (name) => versioned.removeVersioned(name),
    watchChanges(feedOptions) {
      calls.push({ op: 'watch', name: '' });
      let state: FeedState = 'connecting';
      feeds.add(feedOptions);
      queueMicrotask(() => {
        if (!feeds.has(feedOptions)) return;
        state = 'connected';
        feedOptions.onState?.(state);
      });
      return {
        get lastEventId() {
          return events.at(-1)?.id;
        },
        get state() {
          return state;
        },
        close: () => void feeds.delete(feedOptions),
      };
    },
  };
  const plain: ConfigStore = {
    save: versioned.save,
    load: versioned.load,
    loadEntry: versioned.loadEntry,
    list: versioned.list,
    remove: versioned.remove,
  };

  return {
    store: options.versioned === false ? plain : versioned,
    /** The entries the server holds, by name. */
    data,
    /** The server's config of `name`, or null. */
    config: (name: string) => data.get(name)?.entry.config ?? null,
    calls,
    /** Every change event the server emitted. */
    events,
    applied,
    setScript(next: Script) {
      script = next;
    },
    /** Writes as another client would, straight into the server's data (a later `updatedAt`). */
    writeDirect(name: string, config: LinkConfig) {
      return put(name, config, 'other');
    },
    /** Deletes as another client would. */
    removeDirect(name: string) {
      if (!data.delete(name)) return;
      applied.push({ by: 'other', name, config: null });
      emit(name);
    },
    /** Tells open feeds that their history is gone (`event: reset`). */
    resetFeeds() {
      for (const feed of feeds) feed.onReset?.();
    },
    /** Whether a feed is open. */
    get watching() {
      return feeds.size > 0;
    },
  };
}
