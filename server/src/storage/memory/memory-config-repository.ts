import { compareNames } from '../config-repository.js';
import type {
  Change,
  ConfigRepository,
  HistoryLimits,
  SnapshotItem,
  StoredConfig,
} from '../config-repository.js';
import { putConfig, removeConfig } from '../config-write.js';
import type { WriteTransaction } from '../config-write.js';
import { createMemoryKeys } from './memory-keys.js';
import { createMemoryLinkHealth } from './memory-link-health.js';
import { createMemoryPublish } from './memory-publish.js';
import { changesPage, highestId, historyLimits } from '../write-rules.js';
import { createMemoryHistory } from './memory-history.js';

/** Options of {@link createMemoryConfigRepository}. */
export interface MemoryRepositoryOptions {
  readonly history?: HistoryLimits;
}

/**
 * A repository in process memory: for unit tests, throwaway demos and the start-up warm-up
 * (`warm-up.ts`), never for the server's data.
 */
export function createMemoryConfigRepository(
  options: MemoryRepositoryOptions = {},
): ConfigRepository {
  const limits = historyLimits(options.history);
  const rows = new Map<string, StoredConfig>();
  /** Kept changes, oldest first, each with the time it was recorded. */
  const changes: { change: Change; at: number }[] = [];
  const listeners = new Set<() => void>();
  const history = createMemoryHistory(() => open());
  let revision = 0;
  let prunedThrough = 0;
  let closed = false;
  const open = (): void => {
    if (closed) throw new Error('repository is closed');
  };
  const record = (change: Change, at: number): void => {
    changes.push({ change, at });
    // Oldest first: drop from the front while over the count or older than the age.
    const minId = change.id - limits.maxCount;
    const cutoff = at - limits.maxAgeMs;
    for (let first = changes[0]; first !== undefined; first = changes[0]) {
      if (first.change.id > minId && first.at >= cutoff) break;
      prunedThrough = first.change.id;
      changes.shift();
    }
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
      rows.set(row.name, row);
    },
    deleteRow: (name) => {
      rows.delete(name);
    },
    appendChange: record,
    readCurrentJson: (name) => rows.get(name)?.json ?? '',
    ...history.steps,
  };

  const keys = createMemoryKeys(open);
  return {
    keys,
    linkHealth: createMemoryLinkHealth(open),
    publish: createMemoryPublish(open),
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
      return putConfig(tx, { name, json }, write);
    },
    remove: async (name, write = {}) => {
      open();
      return removeConfig(tx, name, write);
    },
    changeToken: async () => String(revision),
    head: async () => {
      open();
      return revision;
    },
    changesSince: async (afterId, limit) => {
      open();
      return changesPage(afterId, { head: revision, prunedThrough }, () => {
        const start = changes.findIndex((entry) => entry.change.id > afterId);
        return start < 0
          ? []
          : changes.slice(start, start + limit).map((entry) => entry.change);
      });
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
      history.restore(restored.revisions, replace);
      if (replace) rows.clear();
      for (const c of restored.configs) rows.set(c.name, { ...c });
      revision = Math.max(revision, highestId(restored));
      prunedThrough = revision;
      changes.length = 0;
    },
    snapshot: () => {
      open();
      // The rows as they are now: later writes replace map entries and append records, never change these.
      const configs = [...rows.values()].sort((a, b) =>
        compareNames(a.name, b.name),
      );
      const revisions = history.all();
      const keyRows = keys.list();
      return (async function* (): AsyncGenerator<SnapshotItem> {
        for (const config of configs) yield { kind: 'config', config };
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
