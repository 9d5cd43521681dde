import { compareNames } from '../config-repository.js';
import type {
  HistoryRepository,
  RevisionMeta,
  RevisionRecord,
} from '../config-repository.js';
import { materialize } from '../log/history-read.js';
import { pruneHistory } from '../log/history-keep.js';
import type { HistorySteps } from '../log/revision-write.js';

/** The history of the memory adapter: its write steps and its reads (`open` throws once closed). */
export function createMemoryHistory(open: () => void): {
  readonly steps: Omit<HistorySteps, 'readCurrentJson'>;
  readonly reads: HistoryRepository;
  /** Every revision, by name then `rev` (for snapshots). */
  readonly all: () => RevisionRecord[];
  /** Up to `limit` revisions with a change id above `after`, by id (the log). */
  readonly trailAfter: (after: number, limit: number) => RevisionMeta[];
  /** Checks, then adds restored revisions as they are (`replace`: after dropping every revision). */
  readonly restore: (
    records: readonly RevisionRecord[],
    replace: boolean,
  ) => void;
} {
  /** Per name, its revisions in order. */
  const byName = new Map<string, RevisionRecord[]>();
  /** Every revision, by change id. */
  const trail: RevisionMeta[] = [];
  const steps: Omit<HistorySteps, 'readCurrentJson'> = {
    readHistoryTip: (name) => {
      const last = byName.get(name)?.at(-1);
      if (last === undefined) return null;
      return {
        rev: last.meta.rev,
        id: last.meta.id,
        op: last.meta.op,
        base: last.content?.base ?? null,
        chain: last.content?.chain ?? 0,
      };
    },
    appendRevision: (record) => {
      const list = byName.get(record.meta.name) ?? [];
      list.push(record);
      byName.set(record.meta.name, list);
      trail.push(record.meta);
    },
  };
  const reads: HistoryRepository = {
    history: async (name, { limit, before }) => {
      open();
      const list = byName.get(name) ?? [];
      return list
        .filter((r) => before === undefined || r.meta.rev < before)
        .slice(-limit)
        .reverse()
        .map((r) => r.meta);
    },
    revisions: async (name, { from, to }) => {
      open();
      const list = byName.get(name) ?? [];
      const first = list.find((r) => r.meta.rev >= from && r.content !== null);
      const start = Math.min(from, first?.content?.base ?? from);
      return materialize(
        list.filter((r) => r.meta.rev >= start),
        from,
        to,
      );
    },
    auditTrail: async ({ afterId, limit, name }) => {
      open();
      return trail
        .filter(
          (m) => m.id > afterId && (name === undefined || m.name === name),
        )
        .slice(0, limit);
    },
    pruneHistory: (keep, now) =>
      pruneHistory(
        {
          names: async () =>
            [...byName].map(([name, list]) => ({
              name,
              newest: list.at(-1)?.meta.rev ?? 0,
            })),
          firstSince: async (name, atMs) =>
            byName.get(name)?.find((r) => Date.parse(r.meta.at) >= atMs)?.meta
              .rev ?? null,
          chainBaseFrom: async (name, rev) =>
            byName.get(name)?.find((r) => r.meta.rev >= rev && r.content)
              ?.content?.base ?? null,
          deleteBelow: async (name, rev) => {
            const list = byName.get(name) ?? [];
            const kept = list.filter((r) => r.meta.rev >= rev);
            byName.set(name, kept);
            const gone = new Set(
              list.filter((r) => r.meta.rev < rev).map((r) => r.meta.id),
            );
            const rest = trail.filter((m) => !gone.has(m.id));
            trail.splice(0, trail.length, ...rest);
            return gone.size;
          },
        },
        keep,
        now,
      ),
    deletedNames: async () => {
      open();
      return [...byName.entries()]
        .filter(([, list]) => list.at(-1)?.meta.op === 'delete')
        .map(([name]) => name)
        .sort(compareNames);
    },
  };
  const all = (): RevisionRecord[] =>
    [...byName.keys()]
      .sort(compareNames)
      .flatMap((name) => byName.get(name) ?? []);
  const restore = (
    records: readonly RevisionRecord[],
    replace: boolean,
  ): void => {
    const ids = new Set(replace ? [] : trail.map((m) => m.id));
    const revs = new Set(
      replace ? [] : all().map((r) => `${r.meta.rev} ${r.meta.name}`),
    );
    for (const { meta } of records) {
      const rev = `${meta.rev} ${meta.name}`;
      if (ids.has(meta.id) || revs.has(rev)) {
        throw new Error(
          `revision ${rev} (change ${meta.id}) is already stored`,
        );
      }
      ids.add(meta.id);
      revs.add(rev);
    }
    if (replace) {
      byName.clear();
      trail.length = 0;
    }
    for (const record of records) {
      const list = byName.get(record.meta.name) ?? [];
      list.push(record);
      list.sort((a, b) => a.meta.rev - b.meta.rev);
      byName.set(record.meta.name, list);
      trail.push(record.meta);
    }
    trail.sort((a, b) => a.id - b.id);
  };
  const trailAfter = (after: number, limit: number): RevisionMeta[] => {
    // The trail is in id order: the first id above `after` by binary search.
    let low = 0;
    let high = trail.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((trail[mid]?.id ?? 0) <= after) low = mid + 1;
      else high = mid;
    }
    return trail.slice(low, low + limit);
  };
  return { steps, reads, all, restore, trailAfter };
}
