import { compareNames } from '../config-repository.js';
import type {
  HistoryRepository,
  LogEvent,
  RevisionMeta,
  RevisionRecord,
  RevisionSummary,
} from '../config-repository.js';
import { materialize } from '../log/history-read.js';
import { pruneHistory } from '../log/history-keep.js';
import type { HistorySteps } from '../log/revision-write.js';

/**
 * The history of the memory adapter: its write steps and its reads (`open` throws once closed). `events`
 * are the other entries of the log, by id, which pruning shortens in place.
 */
export function createMemoryHistory(
  open: () => void,
  events: LogEvent[],
): {
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
  /** Keeps only `kept` of the events; returns how many went. */
  const keepEvents = (kept: readonly LogEvent[]): number => {
    const removed = events.length - kept.length;
    events.splice(0, events.length, ...kept);
    return removed;
  };
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
        links: last.summary?.links ?? null,
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
    summaries: async (name, { from, to }) => {
      open();
      const found = new Map<number, RevisionSummary>();
      for (const { meta, summary } of byName.get(name) ?? []) {
        if (meta.rev >= from && meta.rev <= to && summary) {
          found.set(meta.rev, summary);
        }
      }
      return found;
    },
    keepSummaries: async (name, entries) => {
      open();
      const list = byName.get(name) ?? [];
      for (const { rev, summary } of entries) {
        const at = list.findIndex((r) => r.meta.rev === rev);
        const record = list[at];
        if (record !== undefined && !record.summary) {
          list[at] = { ...record, summary };
        }
      }
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
          deleteEventsBeyond: async (count) => {
            const seen = new Map<string, number>();
            const newestFirst = [...events].reverse().filter((event) => {
              const n = (seen.get(event.name) ?? 0) + 1;
              seen.set(event.name, n);
              return n <= count;
            });
            return keepEvents(newestFirst.reverse());
          },
          deleteEventsBefore: async (atMs) =>
            keepEvents(events.filter((e) => Date.parse(e.at) >= atMs)),
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
