import { compareNames } from '../config-repository.js';
import type {
  ConfigRepository,
  LogEvent,
  SnapshotItem,
  StoredConfig,
} from '../config-repository.js';
import {
  appendLogEvent,
  putConfig,
  removeConfig,
  updateConfig,
} from '../config-write.js';
import type { WriteTransaction } from '../config-write.js';
import { textOf } from '../stored-text.js';
import { createMemoryHooks } from './memory-hooks.js';
import { createMemoryKeys } from './memory-keys.js';
import { createMemoryLinkHealth } from './memory-link-health.js';
import { createMemoryPublish } from './memory-publish.js';
import { changeOfRevision, changesPage, highestId } from '../write-rules.js';
import { createMemoryHistory } from './memory-history.js';

/**
 * A repository in process memory: for unit tests, throwaway demos and the start-up warm-up
 * (`warm-up.ts`), never for the server's data.
 */
export function createMemoryConfigRepository(): ConfigRepository {
  const rows = new Map<string, StoredConfig>();
  const listeners = new Set<() => void>();
  /** Entries of the log that are not writes, by id (pruned by the history's retention). */
  const events: LogEvent[] = [];
  const history = createMemoryHistory(() => open(), events);
  let revision = 0;
  /** The log's horizon: a reader before it re-lists (raised by a restore). */
  let horizon = 0;
  let closed = false;
  const open = (): void => {
    if (closed) throw new Error('repository is closed');
  };
  const committed = (): void => {
    // Like a commit hook: listeners run after the write has returned.
    queueMicrotask(() => {
      for (const listener of listeners) listener();
    });
  };

  /** The write steps: the map is the transaction (nothing runs in between). */
  const tx: WriteTransaction = {
    readCurrent: (name) => rows.get(name) ?? null,
    nextRevision: () => ++revision,
    writeRow: (row) => {
      rows.set(row.name, { ...row, json: textOf(row.json) });
    },
    deleteRow: (name) => {
      rows.delete(name);
    },
    appendEvent: (event) => {
      events.push(event);
    },
    readCurrentJson: (name) => rows.get(name)?.json ?? '',
    ...history.steps,
  };

  /** Tells the watchers of a write that happened. */
  const told = <R extends { ok: boolean }>(result: R): R => {
    if (result.ok) committed();
    return result;
  };
  const keys = createMemoryKeys(open);
  const publish = createMemoryPublish({ open, tx, committed });
  return {
    keys,
    linkHealth: createMemoryLinkHealth(open),
    hooks: createMemoryHooks(open),
    publish,
    ...history.reads,
    list: async () => {
      open();
      return [...rows.keys()].sort(compareNames);
    },
    get: async (name) => {
      open();
      return rows.get(name) ?? null;
    },
    listVersions: async () => {
      open();
      return [...rows.values()]
        .map(({ name, version }) => ({ name, version }))
        .sort((a, b) => compareNames(a.name, b.name));
    },
    version: async (name) => {
      open();
      return rows.get(name)?.version ?? null;
    },
    put: async (name, json, write = {}) => {
      open();
      return told(putConfig(tx, { name, json }, write));
    },
    update: async (name, decide, write = {}) => {
      open();
      return told(updateConfig(tx, { name, decide }, write));
    },
    remove: async (name, write = {}) => {
      open();
      const result = removeConfig(tx, name, write);
      if (result.ok && result.removed) committed();
      return result;
    },
    changeToken: async () => String(revision),
    head: async () => {
      open();
      return revision;
    },
    readLog: async ({ after, limit }) => {
      open();
      return changesPage(after, { head: revision, horizon }, () =>
        [
          ...history.trailAfter(after, limit).map(changeOfRevision),
          ...events.filter((e) => e.id > after).slice(0, limit),
        ]
          .sort((a, b) => a.id - b.id)
          .slice(0, limit),
      );
    },
    appendEvent: async (event) => {
      open();
      const entry = appendLogEvent(tx, event);
      committed();
      return entry;
    },
    watch: (listener) => {
      const own = (): void => listener();
      listeners.add(own);
      return () => listeners.delete(own);
    },
    count: async () => {
      open();
      return rows.size;
    },
    restoreRows: async (restored, { replace = false } = {}) => {
      open();
      // Checked first, so a refused call changes nothing.
      const left = replace ? new Map<string, StoredConfig>() : rows;
      for (const c of restored.configs) {
        if (left.has(c.name)) throw new Error(`config "${c.name}" exists`);
      }
      const writePublished = publish.restore(restored.published ?? [], replace);
      history.restore(restored.revisions, replace);
      writePublished();
      if (replace) {
        rows.clear();
        events.length = 0;
      }
      for (const c of restored.configs) rows.set(c.name, { ...c });
      revision = Math.max(revision, highestId(restored));
      horizon = revision;
      committed();
    },
    snapshot: () => {
      open();
      // The rows as they are now: later writes replace map entries and append records, never change these.
      const configs = [...rows.values()].sort((a, b) =>
        compareNames(a.name, b.name),
      );
      const revisions = history.all();
      const keyRows = keys.list();
      const published = publish.all();
      return (async function* (): AsyncGenerator<SnapshotItem> {
        for (const config of configs) yield { kind: 'config', config };
        for (const record of published)
          yield { kind: 'publish', publish: record };
        for (const revision of revisions) yield { kind: 'revision', revision };
        for (const key of await keyRows) yield { kind: 'key', key };
      })();
    },
    close: async () => {
      closed = true;
      listeners.clear();
    },
  };
}
