/**
 * What webhooks read: the one log of changes, as entries a hook may be told of. Nothing is queued for
 * hooks: each hook keeps a cursor (the last log id it is done with) and reads the log after it.
 */
import { NamePatterns } from '@linkconfig/shared';
import type { HookEvent, HookPayload } from '@linkconfig/shared';
import type {
  ConfigRepository,
  LogEvent,
} from '../storage/config-repository.js';

/** One entry of the log as hooks see it. */
export interface HookLogEntry {
  /** The log id: increases in commit order; the delivery's idempotency id. */
  readonly id: number;
  readonly type: HookEvent;
  /** When it happened (ISO 8601). */
  readonly at: string;
  /** The configs it is about: a hook hears of it only when its patterns match one of them. */
  readonly configs: readonly string[];
  /** The facts of the event. */
  readonly data: Readonly<Record<string, unknown>>;
}

/** Entries after an id; `reset` when some after it are no longer kept (pruned): go on from `head`. */
export type HookLogPage =
  | {
      readonly reset: false;
      readonly head: number;
      readonly entries: readonly HookLogEntry[];
      /** The highest log id the page covers, entries or not (a page of skipped events still moves on). */
      readonly through: number;
    }
  | { readonly reset: true; readonly head: number };

/** The log, read by id. */
export interface HookLog {
  /** The latest id (0: an empty log). */
  head(): Promise<number>;
  /** Up to `limit` entries with an id above `afterId`, oldest first. */
  read(afterId: number, limit: number): Promise<HookLogPage>;
  /** Calls `listener` when new entries may have been committed; returns the unsubscribe call. */
  watch(listener: () => void): () => void;
}

/** The log event types hooks are told of (the rest of the log's events are not hook events). */
const EVENT_TYPES: ReadonlySet<string> = new Set<HookEvent>([
  'publish',
  'unpublish',
  'link-broken',
  'link-recovered',
]);

const isHookEvent = (type: string): type is HookEvent => EVENT_TYPES.has(type);

/** The facts of a log event: its config's name and its detail (when the detail is an object). */
function eventData(event: LogEvent): Record<string, unknown> {
  const detail =
    typeof event.detail === 'object' &&
    event.detail !== null &&
    !Array.isArray(event.detail)
      ? (event.detail as Record<string, unknown>)
      : {};
  return { ...detail, name: event.name, by: event.by };
}

/**
 * The repository's log of changes as hooks read it: config writes and deletes are `change` entries; the
 * log's events of a kind hooks know (`publish`, `unpublish`, `link-broken`, `link-recovered`) are entries
 * of that kind about their config; other events are skipped. Entries come in log id order.
 */
export function repositoryHookLog(
  repository: Pick<ConfigRepository, 'head' | 'readLog' | 'watch'>,
): HookLog {
  return {
    head: () => repository.head(),
    read: async (afterId, limit) => {
      const page = await repository.readLog({ after: afterId, limit });
      if (page.reset) return page;
      const changes: HookLogEntry[] = page.changes.map(({ id, ...change }) => ({
        id,
        type: 'change',
        at: change.updatedAt,
        configs: [change.name],
        data: change,
      }));
      const events: HookLogEntry[] = [];
      for (const event of page.events) {
        if (!isHookEvent(event.type)) continue;
        events.push({
          id: event.id,
          type: event.type,
          at: event.at,
          configs: [event.name],
          data: eventData(event),
        });
      }
      return {
        reset: false,
        head: page.head,
        through: page.through,
        entries: [...changes, ...events].sort((a, b) => a.id - b.id),
      };
    },
    watch: (listener) => repository.watch(listener),
  };
}

/** What a hook asks to be told: kinds of events, and the configs they are about. */
export interface HookFilter {
  readonly events: readonly HookEvent[];
  readonly configs: readonly string[];
}

/**
 * The body a hook gets for `entry`, or `null` when the hook is not told of it: a kind it did not ask for,
 * or no config within its patterns. Configs outside its patterns are left out of what it is told.
 */
export function payloadFor(
  filter: HookFilter,
  entry: HookLogEntry,
): HookPayload | null {
  if (!filter.events.includes(entry.type)) return null;
  const patterns = new NamePatterns(filter.configs);
  const configs = entry.configs.filter((name) => patterns.matches(name));
  if (configs.length === 0) return null;
  const data =
    'configs' in entry.data ? { ...entry.data, configs } : { ...entry.data };
  return { id: entry.id, type: entry.type, at: entry.at, configs, data };
}
